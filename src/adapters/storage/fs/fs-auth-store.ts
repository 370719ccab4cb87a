import { chmod, link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuthStore } from '../../../ports/auth-store.js';
import type { Logger } from '../../../ports/platform.js';
import { KeyedMutex } from '../../../shared/keyed-mutex.js';
import { readTextIfExists, writeFileAtomic } from './atomic-file.js';

const PRIVATE = 0o600;

/** The key in a key file: its first 32 bytes, or null when there is none yet (or it is short). */
async function readKey(path: string): Promise<Uint8Array | null> {
  try {
    const raw = await readFile(path);
    return raw.length >= 32 ? new Uint8Array(raw.subarray(0, 32)) : null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Auth state in the incumbent's files, all private to the user (0600):
 * `.signing_key` / `.pbkdf2_key` (32 raw bytes), `.sessions.json` (`{token: expiry}`; the
 * incumbent's `{token: {expiry, …}}` rows are read too) and `.login_attempts.json`
 * (`{address: [times]}`). Sessions and failures are loaded once and written through.
 */
export class FsAuthStore implements AuthStore {
  #keys = new Map<string, Promise<Uint8Array>>();
  #sessions: Promise<Map<string, number>> | null = null;
  #failures: Promise<Map<string, number[]>> | null = null;
  #lock = new KeyedMutex();

  constructor(
    readonly stateDir: string,
    readonly logger?: Logger,
  ) {}

  key(name: 'signing' | 'pbkdf2'): Promise<Uint8Array> {
    let key = this.#keys.get(name);
    if (!key) {
      key = this.#loadKey(`.${name === 'signing' ? 'signing' : 'pbkdf2'}_key`);
      this.#keys.set(name, key);
      key.catch(() => this.#keys.delete(name));
    }
    return key;
  }

  async #loadKey(file: string): Promise<Uint8Array> {
    const path = join(this.stateDir, file);
    const existing = await readKey(path);
    if (existing) return existing;
    await mkdir(this.stateDir, { recursive: true });
    const key = crypto.getRandomValues(new Uint8Array(32));
    // Written whole under a private name, then linked into place: the link fails when another
    // process got there first, so servers starting at once agree on one key, and nobody ever
    // reads a half-written one (an exclusive create of the key file itself could be read empty).
    const draft = `${path}.${crypto.randomUUID()}.tmp`;
    await writeFile(draft, key, { mode: PRIVATE, flush: true });
    try {
      await link(draft, path);
      await chmod(path, PRIVATE);
      return key;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const theirs = await readKey(path);
      if (theirs) return theirs;
      // A short key file (a crash under an older version): useless, so replace it.
      await rename(draft, path);
      return key;
    } finally {
      await rm(draft, { force: true });
    }
  }

  async #readJson(file: string): Promise<Record<string, unknown>> {
    const text = await readTextIfExists(join(this.stateDir, file));
    if (!text?.trim()) return {};
    try {
      const value = JSON.parse(text) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      /* logged below */
    }
    this.logger?.error({ msg: 'auth state file unreadable; starting it afresh', path: join(this.stateDir, file) });
    return {};
  }

  #loadSessions(): Promise<Map<string, number>> {
    this.#sessions ??= this.#readJson('.sessions.json').then((raw) => {
      const map = new Map<string, number>();
      for (const [token, value] of Object.entries(raw)) {
        const exp =
          typeof value === 'number' ? value : typeof (value as { expiry?: unknown })?.expiry === 'number' ? (value as { expiry: number }).expiry : null;
        if (exp !== null) map.set(token, exp);
      }
      return map;
    });
    return this.#sessions;
  }

  #loadFailures(): Promise<Map<string, number[]>> {
    this.#failures ??= this.#readJson('.login_attempts.json').then((raw) => {
      const map = new Map<string, number[]>();
      for (const [client, value] of Object.entries(raw)) {
        const times = Array.isArray(value) ? value.filter((t): t is number => typeof t === 'number') : [];
        if (times.length) map.set(client, times);
      }
      return map;
    });
    return this.#failures;
  }

  #save(file: string, value: unknown): Promise<void> {
    return writeFileAtomic(join(this.stateDir, file), JSON.stringify(value), { mode: PRIVATE }).then(() => {});
  }

  async sessionExpiry(token: string) {
    return (await this.#loadSessions()).get(token) ?? null;
  }

  #updateSessions(change: (map: Map<string, number>) => boolean): Promise<void> {
    return this.#lock.run('sessions', async () => {
      const map = await this.#loadSessions();
      if (change(map)) await this.#save('.sessions.json', Object.fromEntries(map));
    });
  }

  putSession(token: string, expiresAt: number) {
    return this.#updateSessions((map) => (map.set(token, expiresAt), true));
  }
  deleteSession(token: string) {
    return this.#updateSessions((map) => map.delete(token));
  }
  pruneSessions(keep: (token: string, expiresAt: number) => boolean) {
    return this.#updateSessions((map) => {
      let changed = false;
      for (const [token, exp] of map) if (!keep(token, exp)) changed = map.delete(token) || changed;
      return changed;
    });
  }

  async failures(client: string) {
    return [...((await this.#loadFailures()).get(client) ?? [])];
  }
  setFailures(client: string, times: number[]) {
    return this.#lock.run('failures', async () => {
      const map = await this.#loadFailures();
      if (!times.length && !map.has(client)) return;
      if (times.length) map.set(client, [...times]);
      else map.delete(client);
      await this.#save('.login_attempts.json', Object.fromEntries(map));
    });
  }
}
