import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { PushSubscriptionJson, userAgentLabel } from '../domain/push/subscription.js';
import { jsonBody } from '../http/validate.js';
import { requestHome } from '../http/request-home.js';
import { BadRequest, NotAvailable } from '../ports/errors.js';
import type { PushService } from '../ports/push.js';

const UnsubscribeBody = z.object({ endpoint: z.string({ error: 'endpoint is required' }).min(1, 'endpoint is required').max(2048, 'endpoint is too long') });

/**
 * Web Push subscriptions (the incumbent has none; the paths are the issue's): the server's
 * public key for `pushManager.subscribe`, and subscribing/unsubscribing this browser for the
 * request's profile. Without deps.push (Workers) every route answers 501.
 */
export function pushRoutes(deps: AppDeps) {
  const app = new Hono();
  const push = (): PushService => {
    if (!deps.push) throw new NotAvailable('Web Push is not available on this deployment (it needs the Node server)');
    return deps.push;
  };

  app.get('/api/push/vapid-public-key', async (c) => {
    const keys = await push().store.vapidKeys();
    return c.json({ public_key: keys.public_key });
  });

  app.post('/api/push/subscribe', async (c) => {
    const service = push();
    const b = await jsonBody(c, PushSubscriptionJson);
    const refused = await service.endpointRefusal(b.endpoint);
    if (refused) throw new BadRequest(refused);
    const home = await requestHome(c, deps);
    await service.store.put({
      endpoint: b.endpoint,
      keys: { p256dh: b.keys.p256dh, auth: b.keys.auth },
      profile: home.profile,
      created_at: Math.floor(deps.clock.now()),
      expiration_time: b.expirationTime ?? null,
      user_agent: userAgentLabel(c.req.header('user-agent')),
    });
    return c.json({ ok: true });
  });

  app.post('/api/push/unsubscribe', async (c) => {
    const service = push();
    const b = await jsonBody(c, UnsubscribeBody);
    // Unknown endpoints are fine: the browser may unsubscribe after the server already dropped it (410).
    await service.store.remove(b.endpoint);
    return c.json({ ok: true });
  });

  return app;
}
