import type { AuthConfig } from '../config.js';
import type { AuthStore } from '../ports/auth-store.js';
import type { Clock, Logger } from '../ports/platform.js';
import type { SettingsStore } from '../ports/settings-store.js';
import { patchSettings } from '../domain/settings-patch.js';
import { hmacHex, randomHex, timingSafeEqual, toHex, pbkdf2 } from './crypto.js';
import { PBKDF2_ITERATIONS, hashPassword, isUsableHash, verifyPassword } from './password.js';

export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_SECONDS = 60;
export const MIN_PASSWORD_LENGTH = 8;
const HASH_CACHE_SECONDS = 5;

export const AUTH_DEFAULTS: AuthConfig = {
  sessionTtlSeconds: 30 * 86400,
  cookieName: 'hermes_session',
  trustForwardedProto: false,
  trustForwardedHost: false,
  trustForwardedFor: false,
  allowedOrigins: [],
};

export type LoginResult = { ok: true; cookieValue: string } | { ok: false; reason: 'invalid' } | { ok: false; reason: 'rate-limited'; retryAfter: number };

/**
 * Password login: where the password comes from, checking it (with the failed-login limit),
 * and the signed browser sessions it opens. Web Crypto only, so it runs on Node and Workers.
 *
 * A session cookie is `<64-hex token>.<HMAC-SHA256(token) hex>` (the incumbent's format); the
 * token's expiry lives in the AuthStore, so logging out or changing the password revokes it.
 */
export class AuthService {
  readonly config: AuthConfig;
  #store: AuthStore;
  #settings: SettingsStore;
  #clock: Clock;
  #logger: Logger;
  /**
   * The settings password hash, cached for a few seconds: every request asks whether auth is on,
   * and another instance (Workers) or a hand edit of settings.json must still be noticed.
   */
  #storedHash: Promise<string | null> | null = null;
  #storedHashAt = 0;
  #envHash: Promise<string> | null = null;

  constructor(deps: { store: AuthStore; settings: SettingsStore; clock: Clock; logger: Logger }, config: Partial<AuthConfig> = {}) {
    this.#store = deps.store;
    this.#settings = deps.settings;
    this.#clock = deps.clock;
    this.#logger = deps.logger;
    this.config = { ...AUTH_DEFAULTS, ...config };
  }

  /** True when HERMES_WEBUI_PASSWORD sets the password (the settings one is then ignored). */
  get passwordFromEnv(): boolean {
    return !!this.config.password;
  }

  #readStoredHash(): Promise<string | null> {
    const now = this.#clock.now();
    if (this.#storedHash && now - this.#storedHashAt > HASH_CACHE_SECONDS) this.#storedHash = null;
    if (!this.#storedHash) this.#storedHashAt = now;
    this.#storedHash ??= this.#settings.read().then((s) => {
      const hash = s.password_hash;
      if (hash === null || hash === undefined || hash === '') return null;
      // A damaged hash still means "a password is set": fail closed, and say why.
      if (!isUsableHash(hash))
        this.#logger.error({ msg: 'settings.json password_hash is not a hash this server can check; no password will be accepted until it is reset' });
      return typeof hash === 'string' ? hash : String(hash);
    });
    this.#storedHash.catch(() => (this.#storedHash = null));
    return this.#storedHash;
  }

  /** True when a password is required (from the environment or settings). */
  async enabled(): Promise<boolean> {
    return this.passwordFromEnv || (await this.#readStoredHash()) !== null;
  }

  /** Checks a password against the active one; no rate limiting here (see login()). */
  async checkPassword(password: string): Promise<boolean> {
    if (this.config.password) {
      // Hashed like the incumbent hashes its env password, so both compare the same way.
      const salt = await this.#store.key('pbkdf2');
      this.#envHash ??= pbkdf2(this.config.password, salt, PBKDF2_ITERATIONS).then(toHex);
      return timingSafeEqual(await this.#envHash, toHex(await pbkdf2(password, salt, PBKDF2_ITERATIONS)));
    }
    const stored = await this.#readStoredHash();
    if (!stored) return false;
    return verifyPassword(password, stored, async () => {
      // The incumbent salted with .pbkdf2_key, and before that with .signing_key.
      const [a, b] = await Promise.all([this.#store.key('pbkdf2'), this.#store.key('signing')]);
      return [a, b];
    });
  }

  /** Seconds until `client` may try again, or 0 when it may try now. */
  async retryAfter(client: string): Promise<number> {
    const now = this.#clock.now();
    const recent = (await this.#store.failures(client)).filter((t) => now - t < LOGIN_WINDOW_SECONDS);
    if (recent.length < LOGIN_MAX_FAILURES) return 0;
    return Math.max(1, Math.ceil(LOGIN_WINDOW_SECONDS - (now - recent[recent.length - LOGIN_MAX_FAILURES]!)));
  }

  /** Records a failed password for `client` (login, or a wrong current password in settings). */
  async recordFailure(client: string): Promise<void> {
    const now = this.#clock.now();
    const recent = (await this.#store.failures(client)).filter((t) => now - t < LOGIN_WINDOW_SECONDS);
    await this.#store.setFailures(client, [...recent, now]);
  }

  /** Checks a password under the failed-login limit; the right password opens a session. */
  async login(client: string, password: string): Promise<LoginResult> {
    const wait = await this.retryAfter(client);
    if (wait) return { ok: false, reason: 'rate-limited', retryAfter: wait };
    if (!(await this.checkPassword(password))) {
      await this.recordFailure(client);
      return { ok: false, reason: 'invalid' };
    }
    await this.#store.setFailures(client, []);
    return { ok: true, cookieValue: await this.openSession() };
  }

  /** A new signed session cookie value; expired sessions are dropped on the way. */
  async openSession(): Promise<string> {
    const now = this.#clock.now();
    await this.#store.pruneSessions((_, exp) => exp > now);
    const token = randomHex(32);
    await this.#store.putSession(token, now + this.config.sessionTtlSeconds);
    return `${token}.${await hmacHex(await this.#store.key('signing'), token)}`;
  }

  /** The session token a cookie value carries when its signature is right and it has not expired. */
  async verifySession(cookieValue: string | undefined | null): Promise<string | null> {
    if (!cookieValue) return null;
    const dot = cookieValue.lastIndexOf('.');
    if (dot <= 0) return null;
    const token = cookieValue.slice(0, dot);
    const sig = cookieValue.slice(dot + 1);
    if (!/^[0-9a-f]{16,128}$/.test(token)) return null;
    const expected = await hmacHex(await this.#store.key('signing'), token);
    // The incumbent once issued 32-character signatures; its live sessions stay valid.
    const valid = timingSafeEqual(sig, expected) || (sig.length === 32 && timingSafeEqual(sig, expected.slice(0, 32)));
    if (!valid) return null;
    const expiry = await this.#store.sessionExpiry(token);
    if (expiry === null) return null;
    if (expiry <= this.#clock.now()) {
      await this.#store.deleteSession(token);
      return null;
    }
    return token;
  }

  async revokeSession(token: string): Promise<void> {
    await this.#store.deleteSession(token);
  }

  /** Signs everyone out, except the session `keep` when given. */
  async revokeAll(keep?: string): Promise<void> {
    await this.#store.pruneSessions((token) => token === keep);
  }

  /** The CSRF token for a session: HMAC of `csrf:<token>` (the incumbent's derivation). */
  async csrfToken(sessionToken: string): Promise<string> {
    return hmacHex(await this.#store.key('signing'), `csrf:${sessionToken}`);
  }

  async checkCsrf(sessionToken: string, given: string | undefined | null): Promise<boolean> {
    return !!given && timingSafeEqual(given, await this.csrfToken(sessionToken));
  }

  /** Stores a new settings password (null clears it). Callers check the current password first. */
  async setStoredPassword(password: string | null): Promise<void> {
    const hash = password === null ? null : await hashPassword(password);
    await patchSettings(this.#settings, { password_hash: hash });
    this.#storedHash = Promise.resolve(hash);
    this.#storedHashAt = this.#clock.now();
  }

  /** `Set-Cookie` value for a session cookie. */
  sessionCookie(value: string, secure: boolean): string {
    return `${this.config.cookieName}=${value}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${this.config.sessionTtlSeconds}${secure ? '; Secure' : ''}`;
  }

  /** `Set-Cookie` value that removes the session cookie. */
  clearCookie(secure: boolean): string {
    return `${this.config.cookieName}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0${secure ? '; Secure' : ''}`;
  }
}
