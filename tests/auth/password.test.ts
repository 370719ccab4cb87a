import { pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PBKDF2_ITERATIONS, hashPassword, isUsableHash, verifyPassword } from '../../src/auth/password.js';
import { hmacHex, timingSafeEqual } from '../../src/auth/crypto.js';
import { bindRefusal } from '../../src/config.js';

describe('password hashing (Web Crypto PBKDF2-SHA256)', () => {
  it('stores 600,000 iterations with a fresh random salt, and verifies only the right password', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(PBKDF2_ITERATIONS).toBeGreaterThanOrEqual(600_000);
    expect(a).toMatch(/^pbkdf2_sha256\$600000\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
    expect(a.split('$')[2]).not.toBe(b.split('$')[2]);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('derives the same bytes as an independent PBKDF2 (node:crypto)', async () => {
    const hash = await hashPassword('pässwörd ✓', 1000);
    const [, iter, salt, derived] = hash.split('$');
    expect(pbkdf2Sync('pässwörd ✓', Buffer.from(salt!, 'hex'), Number(iter), 32, 'sha256').toString('hex')).toBe(derived);
  });

  it("accepts the incumbent's hashes: bare hex salted with the install's key file", async () => {
    const key = new Uint8Array(32).fill(7);
    const legacy = pbkdf2Sync('old password', key, 600_000, 32, 'sha256').toString('hex');
    expect(await verifyPassword('old password', legacy, async () => [new Uint8Array(32), key])).toBe(true);
    expect(await verifyPassword('old passwort', legacy, async () => [key])).toBe(false);
    expect(await verifyPassword('old password', legacy, async () => [])).toBe(false);
  });

  it('treats damaged hashes as unusable and never as a match', async () => {
    for (const bad of ['pbkdf2_sha256$x$00$11', 'md5$1$00$11', 'plaintext', 'pbkdf2_sha256$1000$zz$11']) {
      expect(isUsableHash(bad)).toBe(false);
      expect(await verifyPassword('plaintext', bad)).toBe(false);
    }
    expect(isUsableHash(await hashPassword('x', 1))).toBe(true);
  });

  it('compares strings without an early exit on the first difference', () => {
    expect(timingSafeEqual('abc', 'abc')).toBe(true);
    expect(timingSafeEqual('abc', 'abd')).toBe(false);
    expect(timingSafeEqual('abc', 'abcd')).toBe(false);
    expect(timingSafeEqual('', '')).toBe(true);
    expect(timingSafeEqual('', 'a')).toBe(false);
  });

  it('signs with HMAC-SHA256 like node:crypto does', async () => {
    const { createHmac } = await import('node:crypto');
    const key = new Uint8Array(32).fill(3);
    expect(await hmacHex(key, 'csrf:abc')).toBe(createHmac('sha256', key).update('csrf:abc').digest('hex'));
  });
});

describe('binding', () => {
  const auth = {};
  it('allows loopback hosts without a password', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.8.9.10', '::ffff:127.0.0.1']) expect(bindRefusal({ host, auth }, null)).toBeNull();
  });
  it('refuses any other address until a password is set, and says how to set one', () => {
    const why = bindRefusal({ host: '0.0.0.0', auth }, null);
    expect(why).toContain('refusing to listen on 0.0.0.0 without a password');
    expect(why).toContain('HERMES_WEBUI_PASSWORD');
    expect(bindRefusal({ host: '192.168.1.5', auth }, '')).not.toBeNull();
    expect(bindRefusal({ host: '0.0.0.0', auth: { password: 'hunter22' } }, null)).toBeNull();
    expect(bindRefusal({ host: '0.0.0.0', auth }, 'pbkdf2_sha256$600000$00$11')).toBeNull();
  });
});
