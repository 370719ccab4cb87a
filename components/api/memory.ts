import { request } from './client.js';

export type MemorySection = 'memory' | 'user' | 'soul';

/** One section as `GET /api/memory` describes it for the panel. */
export interface MemorySectionInfo {
  enabled: boolean;
  /** A save can work: not a symlink, not read-only (else `hint` says why). */
  writable: boolean;
  hint: string | null;
  /** MEMORY.md / USER.md: the `§` entries as shown (secrets masked), the file's real characters and its limit. */
  entries?: string[];
  used?: number;
  limit?: number | null;
}

/** The incumbent's `/api/memory` fields plus `sections` (this server's). */
export interface MemorySnapshot {
  memory: string;
  user: string;
  soul: string;
  memory_path: string;
  user_path: string;
  soul_path: string;
  memory_mtime: number | null;
  user_mtime: number | null;
  soul_mtime: number | null;
  profile: string;
  redacted: boolean;
  sections: Record<MemorySection, MemorySectionInfo>;
}

/** Hermes' memory files (MEMORY.md, USER.md, SOUL.md) of the active profile. */
export const memoryApi = {
  get: () => request<MemorySnapshot>('GET', '/api/memory'),
  /** Replaces a section; `mtime` is what was read, so a file changed meanwhile is a 409. */
  write: (section: MemorySection, content: string, mtime: number | null) =>
    request<MemorySnapshot & { ok: true; section: MemorySection; path: string }>('POST', '/api/memory/write', { section, content, mtime }),
};
