/** Fake credentials for redaction tests (none is real), and checks that they did or did not leak. */

export const KEY = 'sk-proj-Xy9aB3dEf5hIj7lMn9pQr1tUv3xYz5bCd7fGh9jKl1nOp3rSt5vWx7z';
export const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
export const PEM_BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu';
export const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`;
export const DB = 'postgres://u:p@h/db';
/** A classic OpenAI-style key, short enough to fit in a provisional title. */
export const SHORT_KEY = 'sk-Ab3dEf5hIj7lMn9pQr1tUv3xYz5bCd7fGh9jKl1nOp3r';

/** Pieces of each secret that must not appear anywhere in a redacted body. */
export const SECRET_PIECES = [
  SHORT_KEY.slice(3, 15),
  KEY.slice(8, 20),
  KEY.slice(-12),
  JWT.slice(40, 60),
  JWT.slice(-12),
  PEM_BODY.slice(0, 16),
  PEM_BODY.slice(-16),
  'u:p@h',
];

/** The pieces of a secret found in `text` (an empty list when it is clean). */
export function leaked(text: string): string[] {
  const escaped = JSON.stringify(text); // also catches JSON-escaped copies (PEM newlines as \n)
  return SECRET_PIECES.filter((p) => text.includes(p) || escaped.includes(JSON.stringify(p).slice(1, -1)));
}

/** Every piece of every secret is in `text`. */
export function allPresent(text: string): boolean {
  return SECRET_PIECES.every((p) => text.includes(p) || text.includes(JSON.stringify(p).slice(1, -1)));
}
