/** Small Web Crypto helpers (Node and Workers alike). */

const encoder = new TextEncoder();

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

export function fromHex(hex: string): Uint8Array | null {
  if (hex.length % 2 || !/^[0-9a-f]*$/i.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function randomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length));
}

/** Hex of `length` random bytes. */
export function randomHex(length: number): string {
  return toHex(randomBytes(length));
}

/** Compares two strings in time that depends only on their lengths. */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

const hmacKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();

/** HMAC-SHA256 of `message` under `key`, as hex. Imported keys are cached per key buffer. */
export async function hmacHex(key: Uint8Array, message: string): Promise<string> {
  let imported = hmacKeys.get(key);
  if (!imported) {
    imported = crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    hmacKeys.set(key, imported);
  }
  const sig = await crypto.subtle.sign('HMAC', await imported, encoder.encode(message));
  return toHex(new Uint8Array(sig));
}

/** PBKDF2-HMAC-SHA256 → `bytes` derived bytes. */
export async function pbkdf2(password: string, salt: Uint8Array, iterations: number, bytes = 32): Promise<Uint8Array> {
  const base = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations }, base, bytes * 8);
  return new Uint8Array(bits);
}
