/// <reference lib="webworker" />
// The service worker (built by scripts/build.mjs to public/sw.js, unhashed). It precaches the
// shell and every hashed asset of this build; navigations go to the network first and fall back
// to the cached shell when offline; /assets/* are served cache-first. The API, live streams,
// /login and this script itself are never touched. A new version installs and then WAITS: the
// page asks the user, and only a {type: 'SKIP_WAITING'} message activates it.
import { installPush } from './push.js';
declare const self: ServiceWorkerGlobalScope;
/** Injected by the build: the shell, manifest, icons and hashed assets. */
declare const __PRECACHE__: string[];
/** Injected by the build: a hash of the precache list. */
declare const __SW_VERSION__: string;

const PREFIX = 'hermes-shell-';
const CACHE = PREFIX + __SW_VERSION__;
const SHELL = '/';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(__PRECACHE__.map((url) => new Request(url, { cache: 'reload' })))));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

// Web Push: notifications, their actions and subscription renewal (sw/push.ts).
installPush(self);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

/** Requests this worker leaves alone: the browser handles them as if it were not there. */
function bypass(request: Request, url: URL): boolean {
  if (request.method !== 'GET' || url.origin !== self.location.origin) return true;
  // A share page is served whole by the server; offline it must not turn into the app shell.
  if (
    url.pathname.startsWith('/api/') ||
    url.pathname.startsWith('/share/') ||
    url.pathname === '/login' ||
    url.pathname === '/sw.js' ||
    url.pathname === '/health'
  )
    return true;
  return (request.headers.get('Accept') ?? '').includes('text/event-stream');
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (bypass(request, url)) return;
  if (request.mode === 'navigate') {
    event.respondWith(
      (async () => {
        try {
          return await fetch(request);
        } catch (err) {
          const cached = await caches.match(SHELL, { cacheName: CACHE });
          if (cached) return cached;
          throw err;
        }
      })(),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/') || __PRECACHE__.includes(url.pathname)) {
    event.respondWith(
      (async () => {
        const cache = await caches.open(CACHE);
        const hit = await cache.match(request, { ignoreSearch: true });
        if (hit) return hit;
        const res = await fetch(request);
        // Assets loaded on demand (KaTeX fonts) are kept too; the cache goes with its version.
        if (res.ok && url.pathname.startsWith('/assets/')) void cache.put(request, res.clone());
        return res;
      })(),
    );
  }
});
