import type { VapidKeys } from '../../ports/push.js';

/** URL-safe base64 without padding (the form PushSubscription and applicationServerKey use). */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of URL-safe (or standard) base64, padding optional; null when it is not base64. */
export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_+/-]*={0,2}$/.test(text)) return null;
  const standard = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (standard.length % 4 === 1) return null;
  try {
    const binary = atob(standard + '='.repeat((4 - (standard.length % 4)) % 4));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

/** A fresh P-256 key pair for VAPID (Web Crypto, so any runtime can make one). */
export async function generateVapidKeys(): Promise<VapidKeys> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  const jwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  if (!jwk.d) throw new Error('the runtime exported a P-256 private key without its scalar');
  return { public_key: toBase64Url(raw), private_key: jwk.d };
}

/** True for a key pair this module could have made: a 65-byte uncompressed public point and a 32-byte private scalar. */
export function validVapidKeys(value: unknown): value is VapidKeys {
  if (!value || typeof value !== 'object') return false;
  const { public_key, private_key } = value as Record<string, unknown>;
  if (typeof public_key !== 'string' || typeof private_key !== 'string') return false;
  const pub = fromBase64Url(public_key);
  const priv = fromBase64Url(private_key);
  return pub?.length === 65 && pub[0] === 4 && priv?.length === 32;
}
