import { Hono } from 'hono';
import type { AppDeps } from '../deps.js';
import { NotFound } from '../ports/errors.js';

/** The app shell for `/`, `/session/<id>`, `/panel/<name>` and `/login`, and the built front end's static files. */
export function shellRoutes(deps: AppDeps) {
  const app = new Hono();
  const shell = async () => {
    const res = await deps.assets?.fetch('/index.html');
    if (!res) throw new NotFound('not found');
    const headers = new Headers(res.headers);
    // The shell must be revalidated so a new build is picked up at once.
    headers.set('Cache-Control', 'no-cache');
    return new Response(res.body, { status: 200, headers });
  };
  app.get('/', shell);
  app.get('/index.html', shell);
  app.get('/session/:id{.+}', shell);
  // The sign-in page is a view of the same app.
  app.get('/login', shell);
  app.get('/panel/:name', shell);
  // The service worker: always revalidated (a new build must reach the browser's update check at
  // once) and allowed to control the whole origin.
  app.get('/sw.js', async () => {
    const res = await deps.assets?.fetch('/sw.js');
    if (!res) throw new NotFound('not found');
    const headers = new Headers(res.headers);
    headers.set('Cache-Control', 'no-store');
    headers.set('Service-Worker-Allowed', '/');
    return new Response(res.body, { status: 200, headers });
  });
  app.get('*', async (c, next) => {
    if (c.req.path.startsWith('/api/')) return next();
    const res = await deps.assets?.fetch(c.req.path, c.req.header('Accept-Encoding') ?? '');
    return res ?? next();
  });
  return app;
}
