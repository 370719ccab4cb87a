import { fromHex, pbkdf2, randomBytes, timingSafeEqual, toHex } from './crypto.js';

/** OWASP's figure for PBKDF2-HMAC-SHA256. */
export const PBKDF2_ITERATIONS = 600_000;
const PREFIX = 'pbkdf2_sha256';

/**
 * Hashes a password for settings.json: `pbkdf2_sha256$<iterations>$<salt hex>$<hash hex>`,
 * with a fresh 16-byte salt each time.
 */
export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = randomBytes(16);
  const hash = await pbkdf2(password, salt, iterations);
  return `${PREFIX}$${iterations}$${toHex(salt)}$${toHex(hash)}`;
}

/** True for the incumbent's format: bare hex of PBKDF2-600k salted with the install's `.pbkdf2_key`. */
export function isLegacyHash(stored: string): boolean {
  return /^[0-9a-f]{64}$/i.test(stored);
}

/**
 * Checks a password against a stored hash. Hashes written by the Python Hermes WebUI (bare hex,
 * salted with a per-install key file) are accepted through `legacySalts`, so its users keep
 * their password when they switch.
 */
export async function verifyPassword(password: string, stored: string, legacySalts: () => Promise<Uint8Array[]> = async () => []): Promise<boolean> {
  if (isLegacyHash(stored)) {
    for (const salt of await legacySalts()) {
      const hash = await pbkdf2(password, salt, PBKDF2_ITERATIONS);
      if (timingSafeEqual(toHex(hash), stored.toLowerCase())) return true;
    }
    return false;
  }
  const [prefix, iterText, saltHex, hashHex] = stored.split('$');
  const iterations = Number(iterText);
  const salt = fromHex(saltHex ?? '');
  if (prefix !== PREFIX || !Number.isSafeInteger(iterations) || iterations < 1 || !salt || !hashHex) return false;
  const hash = await pbkdf2(password, salt, iterations, hashHex.length / 2);
  return timingSafeEqual(toHex(hash), hashHex.toLowerCase());
}

/** True when the stored value is a hash this server can check (a garbled one disables nothing silently). */
export function isUsableHash(stored: unknown): stored is string {
  if (typeof stored !== 'string') return false;
  if (isLegacyHash(stored)) return true;
  const parts = stored.split('$');
  return parts.length === 4 && parts[0] === PREFIX && /^\d+$/.test(parts[1]!) && !!fromHex(parts[2]!) && !!fromHex(parts[3]!);
}
