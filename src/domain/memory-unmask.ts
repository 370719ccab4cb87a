/**
 * The Memory panel shows memory files with their secrets masked (`sk-***`), so what it sends
 * back carries the masks. Before a save, every piece the user left as it was shown is put back
 * to the original text, so a mask is never written over a secret. Pieces are tried from large
 * to small: a whole entry, then a paragraph (a PEM key's mask spans several lines), then a line.
 * A piece whose masked form stands for two different originals cannot be put back safely: the
 * save is refused rather than guessed.
 */
export type Mask = (text: string) => string;

export class AmbiguousMask extends Error {
  constructor(readonly piece: string) {
    super('A masked secret in the edited text matches several different originals');
  }
}

const paragraphs = (text: string) => text.split(/(\n[ \t]*\n)/);
const lines = (text: string) => text.split(/(\r?\n)/);

/** Originals by their masked form, only those the mask changed. */
function index(pieces: Iterable<string>, mask: Mask): Map<string, Set<string>> {
  const byMasked = new Map<string, Set<string>>();
  for (const piece of pieces) {
    const masked = mask(piece);
    if (masked === piece) continue;
    let set = byMasked.get(masked);
    if (!set) byMasked.set(masked, (set = new Set()));
    set.add(piece);
  }
  return byMasked;
}

/** `piece` back to its one original, or unchanged when it is not a shown mask; throws when ambiguous. */
function lookup(byMasked: Map<string, Set<string>>, piece: string): string | null {
  const found = byMasked.get(piece);
  if (!found) return null;
  if (found.size > 1) throw new AmbiguousMask(piece);
  return [...found][0]!;
}

/**
 * `posted` units (entries, or one whole text) with the masked pieces the user did not change
 * restored from `originals`. Without a mask that changes anything the units come back as sent.
 *
 * @example
 * unmaskUnits(['key sk-***', 'new'], ['key sk-abc…'], redactSecrets) // → ['key sk-abc…', 'new']
 */
export function unmaskUnits(posted: readonly string[], originals: readonly string[], mask: Mask): string[] {
  const whole = index(originals, mask);
  if (!whole.size) return [...posted];
  const byParagraph = index(
    originals.flatMap((o) => paragraphs(o)),
    mask,
  );
  const byLine = index(
    originals.flatMap((o) => lines(o)),
    mask,
  );
  const restoreLines = (text: string) =>
    lines(text)
      .map((l) => lookup(byLine, l) ?? l)
      .join('');
  return posted.map((unit) => {
    const same = lookup(whole, unit);
    if (same !== null) return same;
    return paragraphs(unit)
      .map((p) => lookup(byParagraph, p) ?? restoreLines(p))
      .join('');
  });
}
