export interface Frame {
  id?: string;
  event: string;
  data: any;
}

/** Parses SSE text into frames (comments such as heartbeats are skipped). */
export function parseFrames(text: string): Frame[] {
  const frames: Frame[] = [];
  for (const block of text.split('\n\n')) {
    if (!block.trim()) continue;
    let id: string | undefined;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (!data.length && !id) continue;
    frames.push({ id, event, data: data.length ? JSON.parse(data.join('\n')) : null });
  }
  return frames;
}

/**
 * Reads an SSE response until the server closes it (or `until` says stop, or the timeout),
 * returning every frame. `onFrame` sees each frame as it arrives.
 */
export async function readStream(
  res: Response,
  options: { timeoutMs?: number; until?: (f: Frame) => boolean; onFrame?: (f: Frame) => void | Promise<void> } = {},
): Promise<Frame[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let buffer = '';
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  try {
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`SSE read timed out; got ${frames.map((f) => f.event).join(',')}`);
      const next = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`SSE read timed out; got ${frames.map((f) => f.event).join(',')}`)), remaining)),
      ]);
      if (next.done) break;
      buffer += decoder.decode(next.value, { stream: true });
      let at: number;
      while ((at = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, at + 2);
        buffer = buffer.slice(at + 2);
        for (const f of parseFrames(block)) {
          frames.push(f);
          await options.onFrame?.(f);
          if (options.until?.(f)) return frames;
        }
      }
    }
  } finally {
    reader.releaseLock();
    await res.body!.cancel().catch(() => {});
  }
  return frames;
}

/** Frame ids as seq numbers. */
export const seqs = (frames: Frame[]) => frames.filter((f) => f.id).map((f) => Number(f.id!.split(':').pop()));
