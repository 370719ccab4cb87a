import { afterEach, describe, expect, it } from 'vitest';
import { makeGatewayApp, type GatewayHarness } from './harness.js';

/** Hermes' API has no compress call (it compresses its own context), so manual compression is refused clearly. */
describe('gateway runtime: manual compression', () => {
  let h: GatewayHarness;
  afterEach(async () => h?.close());

  it('answers 400 with an error naming the built-in agent, and stores nothing', async () => {
    h = await makeGatewayApp({ gateway: { runs: false } });
    h.gw.enqueue({ steps: [{ delta: 'one' }] }, { steps: [{ delta: 'two' }] });
    const { sessionId } = await h.turn('first');
    await h.turn('second', { sessionId });
    const r = await h.call('POST', '/api/session/compress', { session_id: sessionId });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/built-in agent/);
    const start = await h.call('POST', '/api/session/compress/start', { session_id: sessionId });
    expect(start.status).toBe(400);
    expect(start.body.error).toMatch(/built-in agent/);
    const s = (await h.call('GET', `/api/session?session_id=${sessionId}`)).body.session;
    expect(s.compression_anchor_visible_idx ?? null).toBeNull();
  });
});
