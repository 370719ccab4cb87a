/**
 * Where password login keeps its state: two secret keys, the signed-in browser sessions and the
 * failed-login ledger. The fs adapter uses the incumbent's files (`.signing_key`, `.pbkdf2_key`,
 * `.sessions.json`, `.login_attempts.json`, all 0600), so signed-in browsers survive a switch.
 */
export interface AuthStore {
  /** A 32-byte secret, generated on first use and kept private. `signing` signs cookies and CSRF tokens; `pbkdf2` salts legacy password hashes. */
  key(name: 'signing' | 'pbkdf2'): Promise<Uint8Array>;
  /** The expiry (epoch seconds) of a session token, or null when unknown. */
  sessionExpiry(token: string): Promise<number | null>;
  putSession(token: string, expiresAt: number): Promise<void>;
  deleteSession(token: string): Promise<void>;
  /** Drops sessions for which `keep` is false; `keep` sees each token and its expiry. */
  pruneSessions(keep: (token: string, expiresAt: number) => boolean): Promise<void>;
  /** Failed-login times (epoch seconds) for a client address, oldest first. */
  failures(client: string): Promise<number[]>;
  /** Replaces a client's failures; an empty list removes the client. */
  setFailures(client: string, times: number[]): Promise<void>;
}
