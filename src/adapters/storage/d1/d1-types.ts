/**
 * The part of Cloudflare's D1 binding these adapters use, declared here so neither the core nor
 * the adapters need Cloudflare's type package. A Workers `env.DB` and Miniflare's
 * `getD1Database()` both satisfy it.
 */
export interface D1ResultMeta {
  /** Rows an INSERT, UPDATE or DELETE changed. */
  changes?: number;
  rows_read?: number;
  rows_written?: number;
  [key: string]: unknown;
}

export interface D1Result<T = Record<string, unknown>> {
  results: T[];
  success: boolean;
  meta: D1ResultMeta;
}

export interface D1PreparedStatement {
  bind(...values: unknown[]): D1PreparedStatement;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  all<T = Record<string, unknown>>(): Promise<D1Result<T>>;
  run<T = Record<string, unknown>>(): Promise<D1Result<T>>;
}

export interface D1Database {
  prepare(query: string): D1PreparedStatement;
  /** Runs the statements in order as one transaction: all of them apply or none does. */
  batch<T = Record<string, unknown>>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]>;
}

/**
 * Splits `items` into JSON arrays of at most about `maxChars` characters each, to be bound as
 * one parameter and unpacked with `json_each` (D1 allows 100 parameters and about 2 MB per
 * value, and counts every statement of a batch against a Worker's query limit).
 */
export function jsonChunks(items: readonly unknown[], maxChars = 512 * 1024): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let size = 2;
  for (const item of items) {
    const text = JSON.stringify(item);
    if (current.length && size + text.length + 1 > maxChars) {
      chunks.push(`[${current.join(',')}]`);
      current = [];
      size = 2;
    }
    current.push(text);
    size += text.length + 1;
  }
  if (current.length) chunks.push(`[${current.join(',')}]`);
  return chunks;
}

/** Rows changed by a statement's result. */
export const changes = (result: D1Result | undefined): number => result?.meta.changes ?? 0;

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Null when `hex` is not an even-length hex string. */
export function fromHex(hex: string): Uint8Array | null {
  if (hex.length % 2 || !/^[0-9a-f]*$/i.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Parses JSON, or returns `undefined` when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
