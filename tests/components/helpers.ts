/**
 * Shared helpers for component tests (run in Chromium by @web/test-runner with mocha).
 * `expect` is chai's; fixtures mount elements into the document and clean up after each test.
 */
import { expect } from 'chai';
import type { LitElement } from 'lit';

export { expect };

const mounted: HTMLElement[] = [];

/** Creates `tag`, sets `props` before it connects, mounts it, and waits for its first render. */
export async function fixture<T extends HTMLElement>(tag: string, props: Record<string, unknown> = {}): Promise<T> {
  const el = document.createElement(tag) as T;
  Object.assign(el, props);
  document.body.append(el);
  mounted.push(el);
  await (el as unknown as LitElement).updateComplete;
  return el;
}

export function cleanup(): void {
  for (const el of mounted.splice(0)) el.remove();
}

/**
 * Waits one animation frame (twice by default: a render, then its layout). A page in the
 * background gets no frames at all (tests run two at a time), so a timer stands in after 50 ms.
 */
export async function nextFrame(times = 2): Promise<void> {
  for (let i = 0; i < times; i++) {
    await new Promise((r) => {
      requestAnimationFrame(() => r(undefined));
      setTimeout(() => r(undefined), 50);
    });
  }
}

/**
 * Polls until `check` passes (or throws its last error after `timeoutMs`). The wait is long
 * because component files run two at a time beside the rest of the suite: a render that takes
 * 50 ms alone can take seconds on a loaded machine. A condition never met still fails.
 */
export async function waitFor(check: () => boolean | undefined, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const r = check();
      if (r !== false) return;
      last = new Error('condition was false');
    } catch (err) {
      last = err;
    }
    if (performance.now() > deadline) throw last;
    await new Promise((r) => setTimeout(r, 16));
  }
}

export interface FetchCall {
  method: string;
  url: string;
  body: any;
  /** Request headers, names lower-cased. */
  headers: Record<string, string>;
}

const AUTH_STATUS = '/api/auth/status';

/**
 * Replaces window.fetch: `routes` maps "METHOD /path" (query ignored) to a JSON body or a
 * function of the call returning one (or a Response). Returns the recorded calls and a restore.
 * `GET /api/auth/status` (the client's CSRF token lookup) is only answered and recorded when routed.
 */
export function stubFetch(routes: Record<string, unknown | ((call: FetchCall) => unknown)>) {
  const original = window.fetch;
  const calls: FetchCall[] = [];
  window.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? 'GET').toUpperCase();
    const path = new URL(url, location.href).pathname;
    let body: any = init.body;
    try {
      body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    } catch {
      /* not JSON */
    }
    const headers = Object.fromEntries(new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined)).entries());
    const call = { method, url, body, headers };
    const route = routes[`${method} ${path}`];
    // The client asks /api/auth/status for a CSRF token before its first POST: plumbing, not
    // recorded unless a test routes it (unrouted, the 404 means "no token", as before auth).
    if (route === undefined && method === 'GET' && path === AUTH_STATUS) return new Response(JSON.stringify({ error: 'not stubbed' }), { status: 404 });
    calls.push(call);
    if (route === undefined) return new Response(JSON.stringify({ error: `no stub for ${method} ${path}` }), { status: 404 });
    const value = typeof route === 'function' ? await (route as (c: FetchCall) => unknown)(call) : route;
    if (value instanceof Response) return value;
    return new Response(JSON.stringify(value), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }) as typeof fetch;
  return { calls, restore: () => (window.fetch = original) };
}
