/**
 * Bounded capture of a command's output, the way Hermes cuts what the model sees: the first 40%
 * of the budget (errors tend to come early) and the last 60% (the latest state), with a notice
 * saying how much was dropped out of how much. Streaming, so a chatty command never holds more
 * than the budget in memory. Runtime-free: the Node host feeds it, the tools read it.
 */

/** Hermes' `tool_output.max_bytes` default (characters, despite the name). */
export const DEFAULT_MAX_OUTPUT_CHARS = 50_000;
const HEAD_SHARE = 0.4;

export function truncationNotice(omitted: number, total: number): string {
  return `\n\n... [OUTPUT TRUNCATED - ${omitted} chars omitted out of ${total} total] ...\n\n`;
}

/** `text` cut to `max` characters as Hermes cuts a finished command's output. */
export function truncateOutput(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * HEAD_SHARE);
  const tail = max - head;
  return text.slice(0, head) + truncationNotice(text.length - head - tail, text.length) + text.slice(text.length - tail);
}

export class OutputWindow {
  private head = '';
  private tail: string[] = [];
  private tailLen = 0;
  private total = 0;
  private readonly headMax: number;
  private readonly tailMax: number;

  constructor(max: number) {
    this.headMax = Math.floor(max * HEAD_SHARE);
    this.tailMax = max - this.headMax;
  }

  push(text: string): void {
    this.total += text.length;
    const headRoom = this.headMax - this.head.length;
    if (headRoom > 0) {
      this.head += text.slice(0, headRoom);
      text = text.slice(headRoom);
    }
    if (!text) return;
    this.tail.push(text);
    this.tailLen += text.length;
    while (this.tailLen > this.tailMax) {
      const first = this.tail[0] as string;
      const drop = Math.min(first.length, this.tailLen - this.tailMax);
      this.tailLen -= drop;
      if (drop === first.length) this.tail.shift();
      else this.tail[0] = first.slice(drop);
    }
  }

  get truncated(): boolean {
    return this.total > this.head.length + this.tailLen;
  }

  text(): string {
    const tail = this.tail.join('');
    if (!this.truncated) return this.head + tail;
    return this.head + truncationNotice(this.total - this.head.length - tail.length, this.total) + tail;
  }
}

/** A rolling buffer keeping the last `max` characters (a background process's output). */
export class RollingBuffer {
  private parts: string[] = [];
  /** Index of the oldest part still kept (dropping from the front without shifting). */
  private first = 0;
  private len = 0;
  constructor(private readonly max: number) {}

  push(text: string): void {
    if (!text) return;
    this.parts.push(text);
    this.len += text.length;
    // Whole parts the window no longer reaches are dropped; the partial one is cut in text().
    while (this.parts.length - this.first > 1 && this.len - (this.parts[this.first] as string).length >= this.max) {
      this.len -= (this.parts[this.first] as string).length;
      this.first++;
    }
    if (this.first > 1024 && this.first * 2 > this.parts.length) {
      this.parts = this.parts.slice(this.first);
      this.first = 0;
    }
  }

  text(): string {
    const all = this.parts.slice(this.first).join('');
    this.parts = [all];
    this.first = 0;
    return all.length > this.max ? all.slice(all.length - this.max) : all;
  }
}
