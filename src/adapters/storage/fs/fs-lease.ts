import { randomUUID } from 'node:crypto';
import { link, mkdir, readdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LeaseStore } from '../../../ports/lease.js';
import { readTextIfExists } from './atomic-file.js';

interface LeaseRecord {
  /** Null once released. */
  owner: string | null;
  /** Epoch milliseconds. */
  expires_at: number;
}

interface Top {
  /** The highest generation on disk (0: none yet). */
  gen: number;
  /** Its record; null when there is none or it cannot be read (free either way). */
  record: LeaseRecord | null;
}

export interface FsLeaseHooks {
  /** Runs after a lease's state is read and before the write that acts on it (tests hold servers here). */
  beforeWrite?: (key: string) => Promise<void>;
}

/** Enough for any real contention (each retry means another server's write went through). */
const ATTEMPTS = 16;
const GENERATION = /^(\d+)\.json$/;

/**
 * Leases as files under `<state dir>/leases/<key>.lease.d/`, one per generation (`<n>.json`): the
 * highest generation is the lease. Every change (take, renew, release) writes generation n+1
 * with link(), which fails when that name exists, so of the servers that read generation n only
 * one makes n+1 — a compare-and-swap, with no read-then-remove window in which two takers of an
 * expired lease could each remove the other's fresh file. The writer then lists the generations:
 * it wins only if its own is still the highest (one re-created by a server that read long ago
 * never is: the highest is never removed), and removes the older ones. A released lease stays
 * as one small file whose record has no owner.
 */
export class FsLeaseStore implements LeaseStore {
  readonly #root: string;

  /** `now` in milliseconds: the wall clock every server shares. */
  constructor(
    stateDir: string,
    private readonly now: () => number = () => Date.now(),
    private readonly hooks: FsLeaseHooks = {},
  ) {
    this.#root = join(stateDir, 'leases');
  }

  #dir(key: string): string {
    return join(this.#root, `${key.replace(/[^A-Za-z0-9_.-]/g, '_')}.lease.d`);
  }

  async #generations(dir: string): Promise<number[]> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    return names.flatMap((name) => {
      const m = GENERATION.exec(name);
      return m ? [Number(m[1])] : [];
    });
  }

  async #top(dir: string): Promise<Top> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const gens = await this.#generations(dir);
      if (!gens.length) return { gen: 0, record: null };
      const gen = Math.max(...gens);
      const text = await readTextIfExists(join(dir, `${gen}.json`));
      // Removed since the listing: a newer generation exists, list again.
      if (text === null) continue;
      return { gen, record: parseRecord(text) };
    }
    throw new Error(`lease ${dir}: its generations kept changing while being read`);
  }

  /** Writes generation `gen + 1`; true when it is the lease now (this call won the swap). */
  async #swap(key: string, dir: string, gen: number, record: LeaseRecord): Promise<boolean> {
    await this.hooks.beforeWrite?.(key);
    await mkdir(dir, { recursive: true });
    // Written whole beside the key's folder, so a listing never sees a half-written generation.
    const temp = join(this.#root, `.${randomUUID()}.tmp`);
    const mine = gen + 1;
    await writeFile(temp, JSON.stringify(record));
    try {
      await link(temp, join(dir, `${mine}.json`));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    } finally {
      await unlink(temp).catch(() => {});
    }
    const gens = await this.#generations(dir);
    if (Math.max(...gens) !== mine) {
      // A generation this one's read predates (removed, then re-made here): not the lease.
      await unlink(join(dir, `${mine}.json`)).catch(() => {});
      return false;
    }
    for (const g of gens) if (g < mine) await unlink(join(dir, `${g}.json`)).catch(() => {});
    return true;
  }

  async acquire(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const dir = this.#dir(key);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const { gen, record } = await this.#top(dir);
      const free = record === null || record.owner === null || record.owner === owner || record.expires_at <= this.now();
      if (!free) return false;
      if (await this.#swap(key, dir, gen, { owner, expires_at: this.now() + ttlMs })) return true;
      // Another server wrote first: what it wrote decides (it took it, or let it go).
    }
    return false;
  }

  async renew(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const dir = this.#dir(key);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const { gen, record } = await this.#top(dir);
      if (record?.owner !== owner) return false;
      if (await this.#swap(key, dir, gen, { owner, expires_at: this.now() + ttlMs })) return true;
    }
    return false;
  }

  async release(key: string, owner: string): Promise<void> {
    const dir = this.#dir(key);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const { gen, record } = await this.#top(dir);
      if (record?.owner !== owner) return;
      if (await this.#swap(key, dir, gen, { owner: null, expires_at: 0 })) return;
    }
  }

  async holder(key: string): Promise<{ owner: string; expiresAt: number } | null> {
    const { record } = await this.#top(this.#dir(key));
    return record?.owner != null && record.expires_at > this.now() ? { owner: record.owner, expiresAt: record.expires_at } : null;
  }
}

/** A generation's record; null (free) when it is not one (a file another program put there). */
function parseRecord(text: string): LeaseRecord | null {
  try {
    const r = JSON.parse(text) as LeaseRecord;
    return (typeof r.owner === 'string' || r.owner === null) && typeof r.expires_at === 'number' ? r : null;
  } catch {
    return null;
  }
}
