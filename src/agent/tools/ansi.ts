/**
 * Removes terminal escape sequences from command output before the model reads it (a model
 * that sees `\x1b[31m` tends to copy it into files). Covers what Hermes strips: ECMA-48 CSI,
 * OSC (ended by BEL or ST), DCS/SOS/PM/APC strings, nF escapes, two-character Fp/Fe/Fs
 * escapes, and the 8-bit C1 forms. Other control characters (tab, newline, CR) stay.
 */
const ESCAPES = new RegExp(
  [
    String.raw`\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]`, // CSI: colours, cursor moves
    String.raw`\x1b\][\s\S]*?(?:\x07|\x1b\\)`, // OSC: titles, hyperlinks
    String.raw`\x1b[PX^_][\s\S]*?\x1b\\`, // DCS, SOS, PM, APC strings
    String.raw`\x1b[\x20-\x2f]+[\x30-\x7e]`, // nF: charset selection
    String.raw`\x1b[\x30-\x7e]`, // Fp/Fe/Fs: single-character escapes
    String.raw`\x9b[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]`, // 8-bit CSI
    String.raw`\x9d[\s\S]*?(?:\x07|\x9c)`, // 8-bit OSC
    String.raw`[\x80-\x9f]`, // other 8-bit C1 controls
  ].join('|'),
  'g',
);
const HAS_ESCAPE = /[\x1b\x80-\x9f]/;

/** `text` without escape sequences; text without any comes back as the same string. */
export function stripAnsi(text: string): string {
  if (!text || !HAS_ESCAPE.test(text)) return text;
  return text.replace(ESCAPES, '');
}
