import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchGuardError, guardedFetch } from '../../src/http/guarded-fetch.js';
import { errorResponder } from '../../src/http/errors.js';
import { BadRequest } from '../../src/ports/errors.js';
import { memoryLogger } from '../helpers/app.js';

/** What the server saw of each request: whether the client hung up before the response ended. */
const seen = new Map<string, { finished: boolean; closedEarly: boolean; bytesWritten: number }>();

function write(res: ServerResponse, chunk: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(chunk, () => resolve());
  });
}

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const path = req.url ?? '/';
    const record = { finished: false, closedEarly: false, bytesWritten: 0 };
    seen.set(path, record);
    res.on('finish', () => (record.finished = true));
    res.on('close', () => (record.closedEarly = !record.finished));
    switch (path) {
      case '/json':
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ok: true, models: ['a', 'b'] }));
        return;
      case '/text':
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not here – ünïcode');
        return;
      case '/empty':
        res.writeHead(204).end();
        return;
      case '/301':
        res.writeHead(301, { Location: '/json' }).end('moved');
        return;
      case '/302':
        res.writeHead(302, { Location: 'http://user:secret@169.254.169.254/latest/meta-data/' }).end();
        return;
      case '/307':
        res.writeHead(307, { Location: 'https://example.com/elsewhere?token=abc' }).end();
        return;
      case '/slow':
        setTimeout(() => res.destroyed || res.writeHead(200).end('late'), 3_000).unref();
        return;
      case '/slow-body':
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('first part…');
        setTimeout(() => res.destroyed || res.end('rest'), 3_000).unref();
        return;
      case '/big':
      case '/big-chunked': {
        // 1 MB in 16 KB chunks; /big declares its length, /big-chunked does not.
        const chunk = Buffer.alloc(16 * 1024, 'x');
        res.writeHead(200, path === '/big' ? { 'Content-Length': String(64 * chunk.length) } : {});
        for (let i = 0; i < 64 && !res.destroyed; i++) {
          await write(res, chunk);
          record.bytesWritten += chunk.length;
        }
        res.end();
        return;
      }
      case '/not-json':
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('<html>');
        return;
      case '/endless': {
        // Writes until the client hangs up (or 64 MB, so a broken guard cannot hang the test).
        const chunk = Buffer.alloc(64 * 1024, 'y');
        res.writeHead(200);
        while (!res.destroyed && record.bytesWritten < 64 * 1024 * 1024) {
          await write(res, chunk);
          record.bytesWritten += chunk.length;
        }
        res.end();
        return;
      }
      default:
        res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The error guardedFetch rejects with. */
async function failure(url: string, init?: Parameters<typeof guardedFetch>[1]): Promise<Error> {
  try {
    await guardedFetch(url, init);
  } catch (err) {
    return err as Error;
  }
  throw new Error(`expected ${url} to fail`);
}

describe('guardedFetch: what it fetches', () => {
  it('reads a JSON answer', async () => {
    const res = await guardedFetch(`${base}/json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.json()).toEqual({ ok: true, models: ['a', 'b'] });
    expect(res.body).toBeInstanceOf(Uint8Array);
  });

  it('passes method, headers and body through, and returns any status as it is', async () => {
    const text = await guardedFetch(`${base}/text`, { method: 'GET', headers: { Accept: 'text/plain' } });
    expect(text.status).toBe(404);
    expect(text.text()).toBe('not here – ünïcode');
    const empty = await guardedFetch(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body.byteLength).toBe(0);
  });

  it('a body that is not JSON fails json() with a clear error', async () => {
    const res = await guardedFetch(`${base}/not-json`);
    expect(res.text()).toBe('<html>');
    expect(() => res.json()).toThrow(FetchGuardError);
    expect(() => res.json()).toThrow(/did not answer with JSON/);
  });
});

describe('guardedFetch: refused URLs', () => {
  for (const url of ['file:///etc/passwd', 'data:text/plain,hello', 'javascript:alert(1)', 'ftp://example.com/file', 'gopher://example.com/']) {
    it(`refuses ${url.split(':')[0]}:`, async () => {
      const err = await failure(url);
      expect(err).toBeInstanceOf(BadRequest);
      expect(err.message).toBe(`Only http:// and https:// URLs can be fetched, not ${url.split(':')[0]}:`);
    });
  }

  it('refuses text that is not a URL', async () => {
    for (const url of ['', 'not a url', '127.0.0.1:8080/v1', '/relative/path']) {
      const err = await failure(url);
      expect(err, url).toBeInstanceOf(BadRequest);
      expect(err.message).toMatch(/not valid.*http/);
    }
  });

  it('refuses credentials in the URL (they belong in a header)', async () => {
    for (const url of [`http://user:pass@127.0.0.1:1/`, `https://token@example.com/`]) {
      const err = await failure(url);
      expect(err, url).toBeInstanceOf(BadRequest);
      expect(err.message).toMatch(/must not contain a user name or password/);
      expect(err.message).not.toContain('pass@');
    }
  });
});

describe('guardedFetch: guards', () => {
  it('does not follow 301/302/307; the error says where it pointed', async () => {
    seen.delete('/json');
    const e301 = await failure(`${base}/301`);
    expect(e301).toBeInstanceOf(FetchGuardError);
    expect((e301 as FetchGuardError).status).toBe(502);
    expect(e301.message).toBe(`${base}/301 redirected to ${base}/json; redirects are not followed`);
    expect(seen.has('/json')).toBe(false); // the target was never asked
    const e302 = await failure(`${base}/302`);
    // The target's credentials are not repeated.
    expect(e302.message).toBe(`${base}/302 redirected to http://169.254.169.254/latest/meta-data/; redirects are not followed`);
    const e307 = await failure(`${base}/307`);
    expect(e307.message).toBe(`${base}/307 redirected to https://example.com/elsewhere; redirects are not followed`);
    expect((e307 as FetchGuardError).reason).toBe('redirect');
  });

  it('times out a server that does not answer', async () => {
    const started = Date.now();
    const err = await failure(`${base}/slow`, { timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(err).toBeInstanceOf(FetchGuardError);
    expect((err as FetchGuardError).reason).toBe('timeout');
    expect(err.message).toBe(`${base}/slow did not answer within 200 ms (timed out)`);
  });

  it('the deadline covers the body too', async () => {
    const err = await failure(`${base}/slow-body`, { timeoutMs: 200 });
    expect((err as FetchGuardError).reason).toBe('timeout');
    expect(err.message).toMatch(/timed out/);
  });

  it('cuts off a 1 MB body at the 256 KB cap', async () => {
    const err = await failure(`${base}/big-chunked`);
    expect(err).toBeInstanceOf(FetchGuardError);
    expect((err as FetchGuardError).status).toBe(502);
    expect((err as FetchGuardError).reason).toBe('too_large');
    expect(err.message).toBe(`The response from ${base}/big-chunked was larger than 256 KB`);
  });

  it('refuses a body whose declared length is over the cap before reading it', async () => {
    const err = await failure(`${base}/big`);
    expect(err.message).toBe(`The response from ${base}/big was larger than 256 KB`);
  });

  it('hangs up on a body that never ends once it passes the cap', async () => {
    const err = await failure(`${base}/endless`);
    expect((err as FetchGuardError).reason).toBe('too_large');
    await expect.poll(() => seen.get('/endless')!.closedEarly).toBe(true);
    expect(seen.get('/endless')!.bytesWritten).toBeLessThan(64 * 1024 * 1024);
  });

  it('reads no more than the cap plus one chunk, then cancels the stream', async () => {
    const CHUNK = 16 * 1024;
    let pulled = 0;
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled++;
          controller.enqueue(new Uint8Array(CHUNK));
        },
        cancel() {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const realFetch = globalThis.fetch;
    globalThis.fetch = async () => new Response(source, { status: 200 });
    try {
      const err = await failure('http://model.test/v1/models');
      expect(err.message).toBe('The response from http://model.test/v1/models was larger than 256 KB');
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(cancelled).toBe(true);
    // 16 chunks fill the 256 KB cap; the 17th crosses it (a stream may have pulled one more ahead).
    expect(pulled).toBeGreaterThanOrEqual(17);
    expect(pulled).toBeLessThanOrEqual(18);
  });

  it('takes a smaller or larger cap', async () => {
    expect((await failure(`${base}/json`, { maxBytes: 10 })).message).toBe(`The response from ${base}/json was larger than 10 bytes`);
    const res = await guardedFetch(`${base}/big-chunked`, { maxBytes: 2 * 1024 * 1024 });
    expect(res.body.byteLength).toBe(1024 * 1024);
  });

  it('a server that is not there is a 502 saying so', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(`http://127.0.0.1:${port}/v1/models`);
    expect(err).toBeInstanceOf(FetchGuardError);
    expect(err.message).toBe(`Could not reach http://127.0.0.1:${port}/v1/models: ECONNREFUSED`);
  });

  it("a caller's own abort is passed on as it is, not as a timeout", async () => {
    const controller = new AbortController();
    const reason = new Error('user went away');
    setTimeout(() => controller.abort(reason), 50);
    const err = await failure(`${base}/slow`, { signal: controller.signal, timeoutMs: 5_000 });
    expect(err).toBe(reason);
  });

  it('secrets in the path are masked in error messages, and the query is left out', async () => {
    const err = await failure(`${base}/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1/getMe?token=abc`, { maxBytes: 1 });
    expect(err.message).toBe(`The response from ${base}/bot123456789:***/getMe was larger than 1 byte`);
  });
});

describe('guardedFetch: in a route', () => {
  it('failures answer {"error": …} with 400 or 502', async () => {
    const app = new Hono();
    app.get('/probe', async (c) => c.json((await guardedFetch(c.req.query('url') ?? '', { timeoutMs: 200 })).json() as object));
    app.onError(errorResponder(memoryLogger()));
    const ask = async (url: string) => {
      const res = await app.request(`/probe?url=${encodeURIComponent(url)}`);
      return { status: res.status, body: await res.json() };
    };
    expect(await ask(`${base}/json`)).toEqual({ status: 200, body: { ok: true, models: ['a', 'b'] } });
    expect(await ask('file:///etc/passwd')).toEqual({ status: 400, body: { error: 'Only http:// and https:// URLs can be fetched, not file:' } });
    expect(await ask(`${base}/302`)).toEqual({
      status: 502,
      body: { error: `${base}/302 redirected to http://169.254.169.254/latest/meta-data/; redirects are not followed` },
    });
    expect(await ask(`${base}/slow`)).toEqual({ status: 502, body: { error: `${base}/slow did not answer within 200 ms (timed out)` } });
  });
});
