import { gzipSync, brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

describe('static assets', () => {
  let t: TestApp;
  const js = 'export const x = 1;\n'.repeat(200);
  beforeEach(async () => {
    t = await makeTestApp();
    await mkdir(join(t.dir, 'public', 'assets'), { recursive: true });
    await writeFile(join(t.dir, 'public', 'assets', 'main-ABCD1234.js'), js);
    await writeFile(join(t.dir, 'public', 'assets', 'main-ABCD1234.js.br'), brotliCompressSync(js));
    await writeFile(join(t.dir, 'public', 'assets', 'main-ABCD1234.js.gz'), gzipSync(js));
  });
  afterEach(async () => t.close());

  it('serves the pre-compressed copy the browser accepts, brotli first', async () => {
    const br = await t.app.request('/assets/main-ABCD1234.js', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toContain('javascript');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(br.headers.get('cache-control')).toContain('immutable');
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(js);
    const gz = await t.app.request('/assets/main-ABCD1234.js', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const plain = await t.app.request('/assets/main-ABCD1234.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(js);
  });
});
