import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { CONTENT_SECURITY_POLICY } from '../../src/http/security-headers.js';

describe('security headers', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
    await writeFile(join(t.dir, 'public', 'index.html'), '<!doctype html><html><body>app</body></html>');
    await mkdir(join(t.dir, 'public', 'embed'), { recursive: true });
    await writeFile(join(t.dir, 'public', 'embed', 'hermes-chat.js'), 'export {};');
  });
  afterEach(async () => t.close());

  const strict = (res: Response) => {
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('permissions-policy')).toContain('camera=()');
    expect(res.headers.get('permissions-policy')).toContain('geolocation=()');
  };

  it('the shell, the API, errors and 404s all carry them, with framing denied', async () => {
    for (const path of ['/', '/session/abc', '/api/sessions', '/api/session?session_id=nope', '/api/nothing', '/health']) {
      const res = await t.app.request(path);
      strict(res);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('content-security-policy'), path).toBe(CONTENT_SECURITY_POLICY);
    }
  });

  it('the policy allows no inline or third-party script', () => {
    const script = CONTENT_SECURITY_POLICY.split('; ').find((d) => d.startsWith('script-src'))!;
    expect(script).toBe("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/https?:|\*\./);
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
  });

  it('raw workspace files keep their sandbox policy; the embed bundle may be used in frames', async () => {
    const sid = await t.newSession();
    await writeFile(join(t.workspace, 'page.html'), '<script>alert(1)</script>');
    const raw = await t.app.request(`/api/file/raw?session_id=${sid}&path=page.html`);
    expect(raw.headers.get('content-security-policy')).toBe('sandbox');
    strict(raw);
    const embed = await t.app.request('/embed/hermes-chat.js');
    expect(embed.headers.get('x-frame-options')).toBeNull();
    expect(embed.headers.get('content-security-policy')).toContain('frame-ancestors *');
    strict(embed);
  });

  it('an event stream carries nosniff and no document policies (Node keeps its head per listener)', async () => {
    const res = await t.app.request('/api/sessions/events');
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('permissions-policy')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    await res.body?.cancel();
  });
});
