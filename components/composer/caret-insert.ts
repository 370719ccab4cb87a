/**
 * `insert` put into `text` in place of the selection [start, end), and where the caret goes after
 * it. `spaced`: a space between it and a neighbouring word (dictated phrases); otherwise as given
 * (a saved prompt). An empty text simply becomes `insert`.
 */
export function insertAtCaret(text: string, start: number, end: number, insert: string, spaced: boolean): { text: string; caret: number } {
  const before = text.slice(0, start);
  const after = text.slice(end);
  const lead = spaced && before && !/\s$/.test(before) ? ' ' : '';
  const trail = spaced && after && !/^\s/.test(after) ? ' ' : '';
  return { text: `${before}${lead}${insert}${trail}${after}`, caret: before.length + lead.length + insert.length };
}
