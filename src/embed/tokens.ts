import type { EmbedTokenRecord, EmbedTokenStore } from '../ports/embed-token-store.js';

/** Seconds; one hour unless asked otherwise, at most thirty days. */
export const DEFAULT_TTL_SECONDS = 3600;
export const MAX_TTL_SECONDS = 30 * 24 * 3600;
/** Token text: `hemb_<id>.<secret>`. */
const TOKEN = /^hemb_([0-9a-f]{16})\.([0-9a-f]{64})$/;

/** Whether a stored value has a token record's shape (a hand-edited file or row may not). */
export function isEmbedTokenRecord(v: unknown): v is EmbedTokenRecord {
  const r = v as Partial<EmbedTokenRecord> | null;
  return (
    !!r &&
    typeof r === 'object' &&
    typeof r.id === 'string' &&
    typeof r.origin === 'string' &&
    typeof r.secret_hash === 'string' &&
    typeof r.expires_at === 'number'
  );
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const random = (n: number) => hex(crypto.getRandomValues(new Uint8Array(n)));

async function sha256(text: string): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));
}

/** Constant-time comparison of two equal-length hex strings. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** What a listing shows: everything but the hash. */
export type EmbedTokenInfo = Omit<EmbedTokenRecord, 'secret_hash'> & { active: boolean };

/** Normalises an origin (`https://Example.com:443/` → `https://example.com`); null if it is not one. */
export function normaliseOrigin(value: string): string | null {
  try {
    const u = new URL(value.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    if ((u.pathname !== '/' && u.pathname !== '') || u.search || u.hash || u.username || u.password) return null;
    return u.origin;
  } catch {
    return null;
  }
}

/**
 * Minting, checking, listing and revoking embed tokens. Runtime-free (Web Crypto only).
 *
 * @example
 * const tokens = new EmbedTokens(store, () => Date.now() / 1000);
 * const { token } = await tokens.mint({ origin: 'https://docs.example.com' });
 * await tokens.verify(token, 'https://docs.example.com'); // the record, or null
 */
export class EmbedTokens {
  constructor(
    readonly store: EmbedTokenStore,
    readonly now: () => number,
  ) {}

  async mint(o: { origin: string; session_id?: string | null; ttl_seconds?: number }): Promise<{ token: string; id: string; expires_at: number }> {
    const id = random(8);
    const secret = random(32);
    const created = this.now();
    const ttl = Math.min(Math.max(1, Math.round(o.ttl_seconds ?? DEFAULT_TTL_SECONDS)), MAX_TTL_SECONDS);
    const record: EmbedTokenRecord = {
      id,
      origin: o.origin,
      session_id: o.session_id ?? null,
      secret_hash: await sha256(secret),
      created_at: created,
      expires_at: created + ttl,
      revoked_at: null,
    };
    // Long-expired tokens are dropped as new ones are made, so the file stays small.
    await this.store.prune((r) => r.expires_at > created - 7 * 24 * 3600);
    await this.store.put(record);
    return { token: `hemb_${id}.${secret}`, id, expires_at: record.expires_at };
  }

  /** The record when `token` is genuine, unexpired, unrevoked and made for `origin`; else null. */
  async verify(token: string, origin: string): Promise<EmbedTokenRecord | null> {
    const m = TOKEN.exec(token);
    if (!m) return null;
    const record = await this.store.get(m[1]!);
    if (!record || record.revoked_at !== null || record.expires_at <= this.now() || record.origin !== origin) return null;
    return sameHex(await sha256(m[2]!), record.secret_hash) ? record : null;
  }

  async list(): Promise<EmbedTokenInfo[]> {
    const now = this.now();
    return (await this.store.list())
      .map(({ secret_hash: _h, ...r }) => ({ ...r, active: r.revoked_at === null && r.expires_at > now }))
      .sort((a, b) => b.created_at - a.created_at);
  }

  /** False when there is no such token. */
  async revoke(id: string): Promise<boolean> {
    const record = await this.store.get(id);
    if (!record) return false;
    if (record.revoked_at === null) await this.store.put({ ...record, revoked_at: this.now() });
    return true;
  }
}
