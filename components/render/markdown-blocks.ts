/**
 * Splits markdown into top-level blocks that parse the same alone as inside the whole text, so a
 * streaming answer re-parses only its growing tail and each finished block is parsed once.
 *
 * A split happens before a line that follows a blank line, starts at column 0, is not a list
 * item or an indented continuation (both would join a list above), and is outside a fenced code
 * block and display math. Text with link reference definitions is never split: a definition
 * anywhere applies to the whole document.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const REF_DEF = /^ {0,3}\[[^\]\n]+\]:/m;

/** Where the blocks of `text` start after `from` (a block start itself), in order. */
function blockStarts(text: string, from: number): number[] {
  const starts: number[] = [];
  let fence: string | null = null;
  let displayMath = false;
  let prevBlank = false;
  let pos = from;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    // A last line may still be growing ("1" of "1. item"): it starts no block until its line break.
    if (nl < 0) break;
    const line = text.slice(pos, nl);
    if (fence) {
      const m = FENCE.exec(line);
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.trim() === m[1]) fence = null;
      prevBlank = false;
    } else {
      const blank = line.trim() === '';
      if (prevBlank && !blank && !displayMath && pos > from && !/^[ \t]/.test(line) && !LIST_ITEM.test(line)) starts.push(pos);
      const m = FENCE.exec(line);
      if (m) fence = m[1]!;
      else if (!blank) {
        // $$ and \[ … \] may span blank lines: an odd count leaves a display block open.
        const marks = (line.match(/\$\$|\\\[|\\\]/g) ?? []).length;
        if (marks % 2 === 1) displayMath = !displayMath;
      }
      prevBlank = blank;
    }
    pos = nl + 1;
  }
  return starts;
}

/**
 * Incremental splitting for text that grows at its end: blocks found before are kept while the
 * text still starts with them, and only the rest is scanned.
 */
export class BlockSplitter {
  #text = '';
  /** Offsets of the block starts found so far (the first is always 0). */
  #starts: number[] = [0];
  #complete = false;

  /** `complete`: the text is final, so its last line is whole too (it may start a block). */
  split(text: string, complete = false): string[] {
    if (REF_DEF.test(text)) {
      this.#text = '';
      this.#starts = [0];
      return [text];
    }
    // Only growth keeps what was found (a text split as complete had its last line judged whole).
    const grew = text === this.#text || (!this.#complete && text.startsWith(this.#text));
    if (!grew) this.#starts = [0];
    this.#complete = complete;
    const last = this.#starts[this.#starts.length - 1]!;
    this.#starts.push(...blockStarts(complete && !text.endsWith('\n') ? `${text}\n` : text, last));
    this.#text = text;
    const blocks: string[] = [];
    for (let i = 0; i < this.#starts.length; i++) blocks.push(text.slice(this.#starts[i], this.#starts[i + 1] ?? text.length));
    return blocks;
  }
}

/** The blocks of a text (no incremental state). */
export function splitBlocks(text: string): string[] {
  return new BlockSplitter().split(text, true);
}
