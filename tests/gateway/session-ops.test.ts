import { afterEach, describe, expect, it } from 'vitest';
import { makeGatewayApp, type GatewayHarness } from './harness.js';

/** Through a Hermes gateway: retry and undo are ours (they cut the stored transcript); titles need our own model call. */
describe('gateway runtime: session operations', () => {
  let h: GatewayHarness;
  afterEach(async () => h?.close());

  it('cuts the last exchange for retry and undo, and refuses an on-demand title with a clear 400', async () => {
    h = await makeGatewayApp({ gateway: { runs: false } });
    h.gw.enqueue({ steps: [{ delta: 'one' }] }, { steps: [{ delta: 'two' }] });
    const { sessionId } = await h.turn('first');
    await h.turn('second', { sessionId });
    const title = await h.call('POST', '/api/session/title/regenerate', { session_id: sessionId });
    expect(title.status).toBe(400);
    expect(title.body.error).toMatch(/built-in agent/);
    const retry = await h.call('POST', '/api/session/retry', { session_id: sessionId });
    expect(retry.body).toMatchObject({ ok: true, last_user_text: 'second', removed_count: 2 });
    const undo = await h.call('POST', '/api/session/undo', { session_id: sessionId });
    expect(undo.body).toMatchObject({ ok: true, removed_text: 'first', removed_count: 2 });
    expect((await h.call('GET', `/api/session?session_id=${sessionId}`)).body.session.messages).toEqual([]);
  });
});
