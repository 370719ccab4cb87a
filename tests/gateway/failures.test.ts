import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { events, makeGatewayApp, names, text, type GatewayHarness } from './harness.js';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Every way a gateway turn can fail ends in one clear `apperror` with a hint; nothing hangs. */
describe('gateway runtime: failures', () => {
  let h: GatewayHarness;
  afterEach(async () => h?.close());

  const failed = async (message = 'hi') => {
    const { frames, session } = await h.turn(message);
    expect(names(frames).at(-1)).toBe('apperror');
    expect(session.active_stream_id).toBeNull();
    return { error: events(frames, 'apperror')[0], frames, session };
  };

  it('gateway down: says it cannot reach Hermes and how to start its API server', async () => {
    h = await makeGatewayApp({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
    const { error, session } = await failed();
    expect(error.type).toBe('no_response');
    expect(error.message).toMatch(/Could not reach Hermes Agent at http:\/\/127\.0\.0\.1:\d+/);
    expect(error.hint).toMatch(/API_SERVER_ENABLED=true/);
    expect(error.hint).toMatch(/HERMES_WEBUI_GATEWAY_BASE_URL/);
    // The notice is stored after the user's message, as for the builtin agent.
    expect(session.messages.map((m: any) => m.role)).toEqual(['user', 'assistant']);
    expect(session.messages[1]).toMatchObject({ _error: true, error_type: 'no_response' });
  });

  it('401: names the key to set, without echoing it', async () => {
    h = await makeGatewayApp({ gateway: { apiKey: 'right-key-123456' }, apiKey: 'wrong-key-654321' });
    const { error } = await failed();
    expect(error.type).toBe('auth_mismatch');
    expect(error.message).toMatch(/HTTP 401.*Invalid API key/);
    expect(error.hint).toMatch(/HERMES_WEBUI_GATEWAY_API_KEY/);
    expect(error.hint).toMatch(/API_SERVER_KEY/);
    expect(JSON.stringify(error)).not.toContain('wrong-key-654321');
  });

  it('no key at all against a gateway that needs one', async () => {
    h = await makeGatewayApp({ gateway: { apiKey: 'needed-key-1234' }, apiKey: null });
    const { error } = await failed();
    expect(error.type).toBe('auth_mismatch');
    expect(error.hint).toMatch(/needs an API key/);
  });

  it('429 max_concurrent_runs: says Hermes is busy and which setting limits it', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({
      steps: [],
      status: 429,
      body: { error: { message: 'Too many concurrent runs (max_concurrent_runs=1)', type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' } },
      headers: { 'Retry-After': '5' },
    });
    const { error } = await failed();
    expect(error.type).toBe('rate_limit');
    expect(error.hint).toMatch(/max_concurrent_runs/);
    expect(error.hint).toMatch(/retry after 5 s/);
    // The code and values beside the English, for the web app to say it in the reader's language.
    expect(error).toMatchObject({ hint_code: 'gateway_busy_retry', hint_args: { wait: '5 s' } });
  });

  it('run.failed: the agent failed inside Hermes; the streamed part is kept', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({ steps: [{ delta: 'Starting…' }, { fail: 'Provider returned 500: upstream overloaded' }] });
    const { error, session } = await failed();
    expect(error.type).toBe('error');
    expect(error.message).toBe('Hermes Agent could not finish: Provider returned 500: upstream overloaded');
    expect(error.hint).toMatch(/agent\.log/);
    expect(h.gw.stops).toEqual([]); // Hermes ended it; nothing to stop
    expect(session.messages.slice(1).map((m: any) => [m.content.split('\n')[0], !!m._partial, !!m._error])).toEqual([
      ['Starting…', true, false],
      ['Hermes Agent could not finish: Provider returned 500: upstream overloaded', false, true],
    ]);
  });

  it('a stream that goes silent longer than the read timeout: apperror, and the run is stopped', async () => {
    h = await makeGatewayApp({ readTimeoutMs: 250 });
    h.gw.enqueue({ steps: [{ delta: 'Hmm' }, { hang: true }] });
    const started = Date.now();
    const { error } = await failed();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(error.type).toBe('no_response');
    expect(error.message).toMatch(/went silent: nothing for 0\.3 s/);
    expect(error.hint).toMatch(/HERMES_WEBUI_GATEWAY_READ_TIMEOUT/);
    await expect.poll(() => h.gw.stops.length).toBe(1);
  });

  it('keepalive comments count as life: a slow but chatty run completes', async () => {
    h = await makeGatewayApp({ readTimeoutMs: 250 });
    const steps = [{ delta: 'a' }, ...Array.from({ length: 5 }, () => [{ delayMs: 120 }, { keepalive: true as const }]).flat(), { delta: 'b' }];
    h.gw.enqueue({ steps });
    const { frames } = await h.turn('slow');
    expect(text(frames)).toBe('ab');
    expect(names(frames).at(-1)).toBe('stream_end');
  });

  it('an unknown run.* event ends the turn with an apperror naming it', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({ steps: [{ delta: 'x' }, { event: { event: 'run.exploded', detail: 'boom' } }] });
    const { error } = await failed();
    expect(error.message).toMatch(/"run\.exploded"/);
    expect(error.hint).toMatch(/Update Hermes WebUI/);
    await expect.poll(() => h.gw.stops.length).toBe(1); // not understood, so not left running
  });

  it('an unreadable event (not JSON, or without a name) ends the turn with an apperror', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({ steps: [{ raw: 'data: {not json' }] }, { steps: [{ raw: 'data: {"delta": "no name"}' }] });
    const first = await failed();
    expect(first.error.message).toMatch(/cannot read: a run event that is not JSON/);
    const second = await failed();
    expect(second.error.message).toMatch(/a run event without a name/);
  });

  it('progress events it does not know (newer Hermes) are skipped, not fatal', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({
      steps: [
        { event: { event: 'subagent.start', goal: 'x' } },
        { event: { event: 'run.steered' } },
        { event: { event: 'brand.new.thing' } },
        { delta: 'fine' },
      ],
    });
    const { frames } = await h.turn('go');
    expect(text(frames)).toBe('fine');
    expect(names(frames).at(-1)).toBe('stream_end');
  });

  it('a run cancelled on the Hermes side (not by us) is an interruption with a hint', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({ steps: [{ delta: 'partial' }, { event: { event: 'run.cancelled' } }] });
    const { error } = await failed();
    expect(error.type).toBe('interrupted');
    expect(error.hint).toMatch(/Send your message again/);
  });

  it('a dropped event stream is resumed: with event ids by Last-Event-ID, exactly once', async () => {
    h = await makeGatewayApp({ gateway: { eventIds: true } });
    h.gw.enqueue({ steps: [{ delta: 'Hel' }, { end: true }, { delta: 'lo' }] });
    const { frames, session } = await h.turn('hi');
    expect(text(frames)).toBe('Hello');
    expect(session.messages[1].content).toBe('Hello');
    const eventRequests = h.gw.requests.filter((r) => r.path.endsWith('/events'));
    expect(eventRequests.map((r) => r.headers['last-event-id'])).toEqual([undefined, '1']);
  });

  it("a dropped event stream without ids is resumed too, and the stored answer is Hermes' final output", async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({ steps: [{ delta: 'Hel' }, { end: true }, { delta: 'lo' }, { done: { output: 'Hello!' } }] });
    const { frames, session } = await h.turn('hi');
    expect(names(frames).at(-1)).toBe('stream_end');
    expect(session.messages[1].content).toBe('Hello!');
  });

  it('a stream that keeps ending while the run never finishes gives up with an apperror', async () => {
    h = await makeGatewayApp({ gateway: { eventIds: true } });
    h.gw.enqueue({ steps: [{ delta: 'a' }, { end: true }, { end: true }, { end: true }, { end: true }] });
    const { error } = await failed();
    expect(error.type).toBe('no_response');
    expect(error.message).toMatch(/kept ending before the run finished/);
  });

  it('a run that completes with nothing at all is a no_response error', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({ steps: [{ done: { output: '' } }] });
    const { error } = await failed();
    expect(error.type).toBe('no_response');
    expect(error.message).toMatch(/without an answer/);
  });

  it('the gateway coming back is noticed at the next turn (a failed detection is not cached)', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({ steps: [], status: 503, body: { error: { message: 'restarting' } } }, { steps: [{ delta: 'back' }] });
    const first = await failed();
    expect(first.error.message).toMatch(/HTTP 503/);
    expect(first.error.hint).toMatch(/gateway\.log/);
    const { frames } = await h.turn('again');
    expect(text(frames)).toBe('back');
  });
});
