import { msg, str } from '@lit/localize';
import { ApiError } from '../../api/client.js';
import { formatNumber } from '../../i18n/format.js';
import { type MemorySection, type MemorySnapshot, memoryApi } from '../../api/memory.js';

/** What a save came to; on anything but `saved` the user's text stays where it was. */
export type SaveOutcome =
  | { kind: 'saved'; snapshot: MemorySnapshot }
  | { kind: 'over-limit'; used: number; limit: number; message: string }
  | { kind: 'conflict'; message: string }
  | { kind: 'refused'; message: string };

const FILES: Record<MemorySection, string> = { memory: 'MEMORY.md', user: 'USER.md', soul: 'SOUL.md' };

/** The refusal over the limit, with the figures. */
export const overLimitText = (used: number, limit: number) =>
  msg(str`Not saved: ${formatNumber(used)} / ${formatNumber(limit)} characters, over the limit. Shorten or remove entries, then save again.`);

/** Saves one section with the mtime it was read at. */
export async function saveSection(section: MemorySection, content: string, mtime: number | null): Promise<SaveOutcome> {
  try {
    return { kind: 'saved', snapshot: await memoryApi.write(section, content, mtime) };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const { used, limit } = err.body as { used?: unknown; limit?: unknown };
    if (err.status === 422 && typeof used === 'number' && typeof limit === 'number')
      return { kind: 'over-limit', used, limit, message: overLimitText(used, limit) };
    // The draft stays in its box: reloading brings the file as it is now.
    if (err.status === 409 && typeof err.body.mtime !== 'undefined')
      return { kind: 'conflict', message: msg(str`${FILES[section]} changed elsewhere — reload. Your text is kept.`) };
    if (err.status === 409) return { kind: 'refused', message: err.message };
    return { kind: 'refused', message: err.message };
  }
}

export const mtimeOf = (snap: MemorySnapshot, section: MemorySection) =>
  section === 'memory' ? snap.memory_mtime : section === 'user' ? snap.user_mtime : snap.soul_mtime;
