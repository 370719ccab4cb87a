import { afterEach, describe, expect, it } from 'vitest';
import { makeGatewayApp, type GatewayHarness } from './harness.js';

/** A gateway turn's usage reaches /api/session/usage and the answer it belongs to. */
describe('gateway runtime: usage', () => {
  let h: GatewayHarness;
  afterEach(async () => h?.close());

  for (const path of ['runs', 'chat_completions'] as const) {
    it(`stores the ${path} turn's usage on its answer and in the session totals`, async () => {
      h = await makeGatewayApp(path === 'chat_completions' ? { gateway: { runs: false } } : {});
      h.gw.enqueue({ steps: [{ delta: 'Counted.' }, { done: { usage: { input_tokens: 640, output_tokens: 12 } } }] });
      const { sessionId, session } = await h.turn('count me');
      const answer = session.messages.at(-1);
      expect(answer.role).toBe('assistant');
      expect(answer._turnUsage).toEqual({ input_tokens: 640, output_tokens: 12, estimated_cost: null });
      expect(typeof answer._turnDuration).toBe('number');
      const usage = (await h.call('GET', `/api/session/usage?session_id=${sessionId}`)).body;
      // Hermes reports no window or cost over this API: those stay null rather than guessed.
      expect(usage).toMatchObject({
        input_tokens: 640,
        output_tokens: 12,
        total_tokens: 652,
        estimated_cost: null,
        last_prompt_tokens: 640,
        context_length: null,
      });
    });
  }
});
