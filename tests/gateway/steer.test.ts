import { afterEach, describe, expect, it } from 'vitest';
import { makeGatewayApp, type GatewayHarness } from './harness.js';
import type { Frame } from '../helpers/sse.js';

describe('steer through the Hermes gateway', () => {
  let h: GatewayHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('forwards to POST /v1/runs/{id}/steer when /v1/capabilities offers run_steer', async () => {
    h = await makeGatewayApp({ gateway: { steer: true } });
    const gw = h.gw;
    gw.enqueue({ steps: [{ toolStart: 'terminal', preview: 'make', id: 'c1' }, { delayMs: 1500 }, { toolEnd: 'terminal', id: 'c1' }, { delta: 'Built.' }] });
    let answer: any = null;
    const app = h;
    const { sessionId, frames } = await h.turn('build it', {
      onFrame: async (f: Frame) => {
        if (f.event === 'tool' && !answer) {
          const sid = (await app.call('GET', '/api/sessions')).body.sessions[0].session_id;
          answer = (await app.call('POST', '/api/chat/steer', { session_id: sid, text: 'use -j4' })).body;
        }
      },
    });
    expect(answer, JSON.stringify([answer, gw.steers])).toMatchObject({ accepted: true, fallback: null });
    expect(typeof answer.stream_id).toBe('string');
    const runId = [...gw.runs.keys()][0];
    expect(gw.steers).toEqual([{ run_id: runId, body: { input: 'use -j4' } }]);
    expect(frames.at(-1)!.event).toBe('stream_end');
    // The turn is over: nothing to steer.
    expect((await h.call('POST', '/api/chat/steer', { session_id: sessionId, text: 'late' })).body).toEqual({
      accepted: false,
      fallback: 'not_running',
      stream_id: null,
    });
    const info = (await h.call('GET', '/api/agent')).body;
    expect(info.features.steer).toBe(true);
  });

  it('hands Hermes’ pending_steer back as pending_steer_leftover', async () => {
    h = await makeGatewayApp({ gateway: { steer: true } });
    h.gw.enqueue({ steps: [{ delta: 'Answer ' }, { delayMs: 1000 }, { delta: 'ends.' }, { done: { pendingSteer: true } }] });
    const app = h;
    let sid = '';
    const { frames } = await h.turn('talk', {
      onFrame: async (f: Frame) => {
        if (f.event === 'token' && !sid) {
          sid = (await app.call('GET', '/api/sessions')).body.sessions[0].session_id;
          expect((await app.call('POST', '/api/chat/steer', { session_id: sid, text: 'too late' })).body.accepted).toBe(true);
        }
      },
    });
    const events = frames.map((f) => f.event);
    expect(frames.find((f) => f.event === 'pending_steer_leftover')?.data).toEqual({ session_id: sid, text: 'too late' });
    expect(events.indexOf('pending_steer_leftover')).toBeLessThan(events.indexOf('done'));

    // A failed run hands it back too, before the error closes the stream.
    h.gw.enqueue({ steps: [{ delta: 'Trying' }, { event: { event: 'run.failed', error: 'provider down', pending_steer: 'retry gently' } }] });
    const failed = (await h.turn('fail')).frames;
    expect(failed.find((f) => f.event === 'pending_steer_leftover')?.data.text).toBe('retry gently');
    expect(failed.at(-1)!.event).toBe('apperror');
  });

  it('without run_steer (an older Hermes, or chat completions) the answer is gateway_steer_queued and nothing is sent', async () => {
    for (const gateway of [{ steer: false }, { runs: false }]) {
      h = await makeGatewayApp({ gateway });
      h.gw.enqueue({ steps: [{ delta: 'Working ' }, { delayMs: 300 }, { delta: 'done.' }] });
      const app = h;
      let answer: any = null;
      await h.turn('work', {
        onFrame: async (f: Frame) => {
          if (f.event === 'token' && !answer) {
            const sid = (await app.call('GET', '/api/sessions')).body.sessions[0].session_id;
            answer = (await app.call('POST', '/api/chat/steer', { session_id: sid, text: 'hurry' })).body;
          }
        },
      });
      expect(answer, JSON.stringify(gateway)).toMatchObject({ accepted: false, fallback: 'gateway_steer_queued' });
      expect(typeof answer.stream_id).toBe('string');
      expect(h.gw.steers).toEqual([]);
      expect(h.gw.requests.some((r) => r.path.endsWith('/steer'))).toBe(false);
      await h.close();
      h = undefined;
    }
  });

  it('a run Hermes no longer lets steer (409 run_not_accepting_steer) falls back to queueing', async () => {
    h = await makeGatewayApp({ gateway: { steer: true } });
    h.gw.enqueue({ steps: [{ approval: { command: 'rm -rf build/' } }, { delta: 'ok' }] });
    const app = h;
    let answer: any = null;
    await h.turn('clean', {
      onFrame: async (f: Frame) => {
        if (f.event === 'approval') {
          // Waiting for an approval is not "running" to Hermes.
          answer = (await app.call('POST', '/api/chat/steer', { session_id: f.data.session_id, text: 'skip it' })).body;
          await app.call('POST', '/api/approval/respond', { session_id: f.data.session_id, choice: 'deny', approval_id: f.data.approval_id });
        }
      },
    });
    expect(answer).toMatchObject({ accepted: false, fallback: 'gateway_steer_queued' });
    expect(h.gw.steers).toHaveLength(1);
  });
});
