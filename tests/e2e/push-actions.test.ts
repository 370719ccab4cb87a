import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, CDPSession, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUi, type UiHarness } from '../helpers/browser.js';
import { startPushEndpoint, type PushEndpoint } from '../fixtures/push-endpoint.js';

/** What the worker's scope offers that this test uses (the DOM lib has no ServiceWorkerGlobalScope). */
interface WorkerScope {
  registration: { getNotifications(filter?: { tag: string }): Promise<Notification[]> };
  dispatchEvent(event: Event): boolean;
}
declare const NotificationEvent: new (type: string, init: { notification: Notification; action?: string }) => Event;

interface Shown {
  title: string;
  body: string;
  tag: string;
  data: { kind: string; session_id?: string; approval_id?: string; url: string };
  actions: Array<{ action: string; title: string }>;
}

/**
 * Web Push end to end in Chromium, against the real built server: the server encrypts a push
 * for a waiting approval to an endpoint this test serves; the test decrypts it with the
 * subscription's keys and delivers THAT payload to the app's service worker over CDP (Chromium
 * reaches no real push service here); the worker shows it with Allow once / Deny, and its
 * "allow" action answers the approval by itself — no page on that session — and the turn runs.
 */
describe('web app: push notifications and their actions', () => {
  let ui: UiHarness;
  let endpoint: PushEndpoint;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let registrationId = '';

  beforeAll(async () => {
    endpoint = await startPushEndpoint();
    ui = await startUi({ env: { HERMES_WEBUI_PUSH_ALLOW_LOCAL: '1' } });
    ({ context, page } = await ui.open('/'));
    await context.grantPermissions(['notifications'], { origin: ui.server.url });
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 15_000 });
    cdp = await context.newCDPSession(page);
    const found = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: Array<{ registrationId: string; scopeURL: string }> }) => {
        const reg = e.registrations.find((r) => r.scopeURL.startsWith(ui.server.url));
        if (reg) resolve(reg.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    registrationId = await found;
  });
  afterAll(async () => {
    await cdp?.detach().catch(() => {});
    await ui?.close();
    await endpoint?.close();
  });

  const worker = (): Worker => {
    // The newest: an idle worker the browser stopped and started again is a new Worker.
    const w = context.serviceWorkers().at(-1);
    if (!w) throw new Error('no service worker');
    return w;
  };
  const shown = () =>
    worker().evaluate(async () =>
      (await (self as unknown as WorkerScope).registration.getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        data: n.data,
        actions: ((n as unknown as { actions?: Array<{ action: string; title: string }> }).actions ?? []).map((a) => ({ action: a.action, title: a.title })),
      })),
    ) as Promise<Shown[]>;
  const deliver = (payload: unknown) => cdp.send('ServiceWorker.deliverPushMessage', { origin: ui.server.url, registrationId, data: JSON.stringify(payload) });
  const closeAll = () =>
    worker().evaluate(async () =>
      (await (self as unknown as WorkerScope).registration.getNotifications()).forEach((n: Notification) => {
        n.close();
      }),
    );

  it('shows a delivered push with its buttons, and nothing that is not ours', async () => {
    await deliver({
      title: 'Approval needed',
      body: 'rm -rf x',
      tag: 'hermes-approval-abc',
      data: { kind: 'approval', session_id: 'abc', approval_id: 'a1', url: '/session/abc' },
    });
    await expect.poll(async () => (await shown()).length).toBe(1);
    const [n] = await shown();
    expect(n).toMatchObject({ title: 'Approval needed', body: 'rm -rf x', tag: 'hermes-approval-abc', data: { kind: 'approval', approval_id: 'a1' } });
    expect(n?.actions).toEqual([
      { action: 'allow', title: 'Allow once' },
      { action: 'deny', title: 'Deny' },
    ]);
    // A second push with the same tag replaces it; a payload that is not ours shows nothing.
    await deliver({
      title: 'Approval needed',
      body: 'rm -rf y',
      tag: 'hermes-approval-abc',
      data: { kind: 'approval', session_id: 'abc', approval_id: 'a2', url: '/session/abc' },
    });
    await deliver({ hello: 'world' });
    await expect.poll(async () => (await shown()).map((s) => s.body)).toEqual(['rm -rf y']);
    await closeAll();
  });

  it('answers the approval the server pushed from the notification’s Allow once, and the turn runs the command', async () => {
    const sub = endpoint.subscription();
    expect(await ui.api('/api/push/subscribe', sub)).toEqual({ ok: true });
    ui.model.enqueue(
      [{ toolCall: { id: 'rm1', name: 'terminal', args: { command: 'mkdir -p pushed/x && rm -rf pushed/x && touch pushed.ran' } } }],
      [{ text: 'ran it from the phone' }],
    );
    const sid = (await ui.api('/api/session/new', {})).session.session_id as string;
    // The page stays on the new-chat view: nobody in the app answers this approval.
    expect(await ui.api('/api/chat/start', { session_id: sid, message: 'clean up' })).toMatchObject({ stream_id: expect.any(String) });

    let payload: Shown | undefined;
    for (;;) {
      const push = await endpoint.next(15_000);
      const p = JSON.parse(endpoint.decrypt(push.body));
      if (p.data?.kind === 'approval') {
        payload = p;
        break;
      }
    }
    expect(payload).toMatchObject({ tag: `hermes-approval-${sid}`, data: { kind: 'approval', session_id: sid, approval_id: expect.any(String) } });
    expect(payload?.body).toContain('rm -rf pushed/x');
    const pending = await ui.api(`/api/approval/pending?session_id=${sid}`);
    expect(pending.pending.approval_id).toBe(payload?.data.approval_id);

    await deliver(payload);
    await expect.poll(async () => (await shown()).filter((n) => n.tag === `hermes-approval-${sid}`).length).toBe(1);
    // The browser's click on "Allow once": a NotificationEvent in the worker's scope with the shown notification.
    await worker().evaluate(async (tag) => {
      const scope = self as unknown as WorkerScope;
      const [n] = await scope.registration.getNotifications({ tag });
      scope.dispatchEvent(new NotificationEvent('notificationclick', { notification: n as Notification, action: 'allow' }));
    }, `hermes-approval-${sid}`);

    await expect
      .poll(
        async () => {
          const s = await ui.api(`/api/session?session_id=${sid}`);
          return (s.session?.messages ?? []).some(
            (m: { role: string; content: unknown }) => m.role === 'assistant' && String(m.content).includes('ran it from the phone'),
          );
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    await expect(readFile(join(ui.workspace, 'pushed.ran'), 'utf8')).resolves.toBe('');
    // Answered, the notification is gone; and no "Could not answer" took its place.
    await expect.poll(async () => (await shown()).filter((n) => n.tag === `hermes-approval-${sid}`).length).toBe(0);
    expect(page.url()).not.toContain(sid);
  });

  it('says so when the approval can no longer be answered', async () => {
    const tag = 'hermes-approval-gone';
    await deliver({
      title: 'Approval needed',
      body: 'rm -rf z',
      tag,
      data: { kind: 'approval', session_id: 'c0ffee00c0ff', approval_id: 'nope', url: '/session/c0ffee00c0ff' },
    });
    await expect.poll(async () => (await shown()).filter((n) => n.tag === tag).length).toBe(1);
    await worker().evaluate(async (t) => {
      const scope = self as unknown as WorkerScope;
      const [n] = await scope.registration.getNotifications({ tag: t });
      scope.dispatchEvent(new NotificationEvent('notificationclick', { notification: n as Notification, action: 'deny' }));
    }, tag);
    await expect.poll(async () => (await shown()).filter((n) => n.tag === tag).map((n) => n.title)).toEqual(['Could not answer — open the app']);
    await closeAll();
  });
  it('Settings → Notifications on this device subscribes this browser on the server, and off unsubscribes both sides', async () => {
    // Headless Chromium has no push service and refuses pushManager.subscribe ("permission
    // denied"), so only that call (and getSubscription) stand in: a subscription on this test's endpoint.
    const sub = endpoint.subscription('/push/device');
    await page.evaluate((json) => {
      let current: unknown = null;
      const w = window as unknown as { __pushKey?: number[] };
      const fake = {
        endpoint: json.endpoint,
        options: {},
        toJSON: () => json,
        unsubscribe: async () => {
          current = null;
          return true;
        },
      };
      PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
        w.__pushKey = Array.from(new Uint8Array(options?.applicationServerKey as ArrayBuffer));
        current = fake;
        return fake as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
    }, sub);
    const stored = async () => {
      const text = await readFile(join(ui.stateDir, 'push_subscriptions.json'), 'utf8').catch(() => '{"subscriptions":[]}');
      return (JSON.parse(text).subscriptions as Array<{ endpoint: string }>).map((s) => s.endpoint);
    };
    await page.locator('[data-role="open-settings"]').click();
    const toggle = page.locator('[data-role="push-toggle"]');
    const status = page.locator('[data-role="push-status"]');
    await expect.poll(() => status.textContent()).toBe('Off for this device.');
    await toggle.click();
    await expect.poll(() => status.textContent()).toMatch(/^On: /);
    expect(await toggle.isChecked()).toBe(true);
    expect(await stored()).toContain(sub.endpoint);
    // The key the browser was given is the server's VAPID public key.
    const { public_key } = await ui.api('/api/push/vapid-public-key');
    const given = await page.evaluate(() => (window as unknown as { __pushKey?: number[] }).__pushKey);
    expect(Buffer.from(given ?? []).toString('base64url')).toBe(public_key);
    await toggle.click();
    await expect.poll(() => status.textContent()).toBe('Off for this device.');
    expect(await toggle.isChecked()).toBe(false);
    expect(await stored()).not.toContain(sub.endpoint);
  });
});
