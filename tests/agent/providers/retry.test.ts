import { describe, expect, it } from 'vitest';
import { AgentConfigError, parseAgentConfig } from '../../../src/agent/config.js';
import { describeHttpFailure, malformed, streamCutOff, unreachable, type ProviderContext } from '../../../src/agent/providers/openai.js';
import {
  DEFAULT_BACKOFF,
  classifyFailure,
  parseRetryAfter,
  retryDelayMs,
  streamWithRetries,
  type BackoffPolicy,
  type RetryNotice,
} from '../../../src/agent/providers/retry.js';
import { ProviderError, type ModelChunk, type ModelProvider } from '../../../src/agent/providers/types.js';
import { failureHint } from '../../../src/shared/server-texts-en.js';

const ctx: ProviderContext = { providerId: 'p', baseUrl: 'http://127.0.0.1:1/v1', apiKey: null };
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const http = (status: number, body = '{"error":{"message":"x"}}', retryAfter: string | null = null) => describeHttpFailure(ctx, 'm', status, body, retryAfter);
/** What undici throws: `fetch failed` with the socket's error as its cause. */
const fetchFailed = (code: string | undefined, message = 'boom') =>
  Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(message), code ? { code } : {}) });

describe('agent.api_max_retries', () => {
  const retries = (yaml: string | null) => parseAgentConfig({ configYaml: yaml, dotenv: null, env: {} }).apiMaxRetries;
  it('defaults to 3, as Hermes; 0 turns retries off; rounded, never negative', () => {
    expect(retries(null)).toBe(3);
    expect(retries('agent:\n  max_turns: 5\n')).toBe(3);
    expect(retries('agent:\n  api_max_retries: 0\n')).toBe(0);
    expect(retries('agent:\n  api_max_retries: "5"\n')).toBe(5);
    expect(retries('agent:\n  api_max_retries: 1.6\n')).toBe(2);
    expect(retries('agent:\n  api_max_retries: -2\n')).toBe(0);
  });
  it('a value that is not a number is a config error naming the key', () => {
    expect(() => retries('agent:\n  api_max_retries: lots\n')).toThrow(AgentConfigError);
    expect(() => retries('agent:\n  api_max_retries: lots\n')).toThrow(/agent\.api_max_retries/);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds, fractions and HTTP-dates; never negative; null for anything else', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('1', NOW)).toBe(1000);
    expect(parseRetryAfter(' 2.5 ', NOW)).toBe(2500);
    expect(parseRetryAfter('Thu, 01 Jan 2026 12:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 11:59:00 GMT', NOW)).toBe(0);
    for (const bad of [null, undefined, '', '  ', '-1', 'soon', '1e3', '12:00']) expect(parseRetryAfter(bad, NOW)).toBeNull();
  });
});

describe('classifyFailure', () => {
  it('retries 429, 408 and 5xx (but not 501/505), with a short reason', () => {
    expect(classifyFailure(http(429), NOW)).toEqual({ retry: true, reason: 'rate limited (429)', retryAfterMs: null });
    expect(classifyFailure(http(408), NOW)).toEqual({ retry: true, reason: 'request timed out (408)', retryAfterMs: null });
    for (const status of [500, 502, 503, 504, 529])
      expect(classifyFailure(http(status), NOW)).toEqual({ retry: true, reason: `server error (${status})`, retryAfterMs: null });
    for (const status of [400, 401, 403, 404, 409, 413, 422, 501, 505]) expect(classifyFailure(http(status), NOW)).toEqual({ retry: false });
  });

  it('carries the Retry-After of any retryable status', () => {
    expect(classifyFailure(http(429, '', '7'), NOW)).toMatchObject({ retry: true, retryAfterMs: 7000 });
    expect(classifyFailure(http(503, '', 'Thu, 01 Jan 2026 12:00:02 GMT'), NOW)).toMatchObject({
      retry: true,
      reason: 'server error (503)',
      retryAfterMs: 2000,
    });
  });

  it('never retries a wrong model, even when a server says so with a 500', () => {
    expect(classifyFailure(http(500, '{"error":{"message":"model foo not found"}}'), NOW)).toEqual({ retry: false });
  });

  it('retries resets, refusals, timeouts and an early end; not DNS misses, bad ports or TLS', () => {
    expect(classifyFailure(unreachable(ctx, fetchFailed('ECONNREFUSED')), NOW)).toMatchObject({ retry: true, reason: 'connection refused' });
    expect(classifyFailure(unreachable(ctx, fetchFailed('ECONNRESET')), NOW)).toMatchObject({ retry: true, reason: 'connection reset' });
    expect(classifyFailure(unreachable(ctx, fetchFailed('UND_ERR_SOCKET', 'other side closed')), NOW)).toMatchObject({
      retry: true,
      reason: 'connection reset',
    });
    expect(classifyFailure(unreachable(ctx, fetchFailed('UND_ERR_CONNECT_TIMEOUT')), NOW)).toMatchObject({ retry: true, reason: 'connection timed out' });
    expect(classifyFailure(unreachable(ctx, fetchFailed('EAI_AGAIN')), NOW)).toMatchObject({ retry: true });
    // Workers' fetch gives only a message.
    expect(classifyFailure(unreachable(ctx, new Error('Network connection lost.')), NOW)).toMatchObject({ retry: true, reason: 'connection reset' });
    // A connect failure over several addresses: undici's AggregateError.
    const aggregate = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })]), {}),
    });
    expect(classifyFailure(unreachable(ctx, aggregate), NOW)).toMatchObject({ retry: true, reason: 'connection refused' });
    expect(classifyFailure(streamCutOff(ctx), NOW)).toMatchObject({ retry: true, reason: 'connection closed early' });
    expect(classifyFailure(streamCutOff(ctx, fetchFailed('UND_ERR_SOCKET')), NOW)).toMatchObject({ retry: true, reason: 'connection reset' });
    expect(classifyFailure(unreachable(ctx, fetchFailed('ENOTFOUND')), NOW)).toEqual({ retry: false });
    expect(classifyFailure(unreachable(ctx, fetchFailed(undefined, 'bad port')), NOW)).toEqual({ retry: false });
    expect(classifyFailure(unreachable(ctx, fetchFailed('CERT_HAS_EXPIRED')), NOW)).toEqual({ retry: false });
  });

  it('does not retry malformed answers, empty answers, plain errors or aborts', () => {
    expect(classifyFailure(malformed(ctx, 'not JSON'), NOW)).toEqual({ retry: false });
    expect(classifyFailure(new ProviderError('no_response', 'The model returned an empty response', failureHint('model_empty_response', {})), NOW)).toEqual({
      retry: false,
    });
    expect(classifyFailure(new Error('ECONNRESET'), NOW)).toEqual({ retry: false });
    expect(classifyFailure(new DOMException('Aborted', 'AbortError'), NOW)).toEqual({ retry: false });
  });
});

describe('retryDelayMs', () => {
  const policy = (random: number, extra: Partial<BackoffPolicy> = {}): BackoffPolicy => ({ ...DEFAULT_BACKOFF, random: () => random, ...extra });
  const backoff = { retry: true as const, reason: 'x', retryAfterMs: null };

  it('doubles from the base, adding up to half again at random', () => {
    expect([1, 2, 3].map((n) => retryDelayMs(backoff, n, policy(0)))).toEqual([1000, 2000, 4000]);
    expect([1, 2, 3].map((n) => retryDelayMs(backoff, n, policy(0.5)))).toEqual([1250, 2500, 5000]);
    expect(retryDelayMs(backoff, 1, policy(0.999))).toBe(1500);
  });

  it('never waits past maxDelayMs, jitter included', () => {
    expect(retryDelayMs(backoff, 5, policy(0))).toBe(16_000);
    expect(retryDelayMs(backoff, 5, policy(0.99))).toBe(23_920);
    expect(retryDelayMs(backoff, 6, policy(0.99))).toBe(DEFAULT_BACKOFF.maxDelayMs);
    expect(retryDelayMs(backoff, 40, policy(0))).toBe(DEFAULT_BACKOFF.maxDelayMs);
  });

  it('takes Retry-After as given, up to the cap; past it, gives up', () => {
    expect(retryDelayMs({ ...backoff, retryAfterMs: 0 }, 3, policy(0.9))).toBe(0);
    expect(retryDelayMs({ ...backoff, retryAfterMs: 7000 }, 1, policy(0.9))).toBe(7000);
    expect(retryDelayMs({ ...backoff, retryAfterMs: 60_000 }, 1, policy(0))).toBe(60_000);
    expect(retryDelayMs({ ...backoff, retryAfterMs: 60_001 }, 1, policy(0))).toBeNull();
  });
});

describe('streamWithRetries', () => {
  /** A provider that plays one scripted outcome per request: chunks then maybe a failure. */
  function provider(outcomes: Array<{ chunks?: ModelChunk[]; fail?: unknown }>): ModelProvider & { calls: number } {
    const p = {
      id: 'scripted',
      calls: 0,
      async *stream() {
        const outcome = outcomes[p.calls++] ?? { fail: new Error('no outcome scripted') };
        for (const c of outcome.chunks ?? []) yield c;
        if (outcome.fail) throw outcome.fail;
      },
    };
    return p;
  }
  const text = (t: string): ModelChunk => ({ type: 'text', text: t });
  const collect = async (it: AsyncIterable<ModelChunk>) => {
    const out: ModelChunk[] = [];
    for await (const c of it) out.push(c);
    return out;
  };
  const fast = { baseDelayMs: 1, maxDelayMs: 5, random: () => 0 };

  it('asks again after a retryable failure, announcing each retry', async () => {
    const p = provider([{ fail: http(503) }, { fail: http(429, '', '0') }, { chunks: [text('ok')] }]);
    const notices: RetryNotice[] = [];
    const chunks = await collect(
      streamWithRetries(
        p,
        { model: 'm', messages: [], signal: new AbortController().signal },
        { maxRetries: 3, policy: fast, onRetry: (n) => notices.push(n) },
      ),
    );
    expect(chunks).toEqual([text('ok')]);
    expect(p.calls).toBe(3);
    expect(notices).toEqual([
      { attempt: 1, max: 3, reason: 'server error (503)', delay_ms: 1 },
      { attempt: 2, max: 3, reason: 'rate limited (429)', delay_ms: 0 },
    ]);
  });

  it('rethrows the last failure after maxRetries + 1 requests', async () => {
    const failures = [http(502), http(502), http(503)];
    const p = provider(failures.map((fail) => ({ fail })));
    await expect(
      collect(streamWithRetries(p, { model: 'm', messages: [], signal: new AbortController().signal }, { maxRetries: 2, policy: fast })),
    ).rejects.toBe(failures[2]);
    expect(p.calls).toBe(3);
  });

  it('never retries once a chunk has streamed, nor a non-retryable failure', async () => {
    const cut = streamCutOff(ctx);
    const afterChunk = provider([{ chunks: [text('Hal')], fail: cut }, { chunks: [text('again')] }]);
    const seen: ModelChunk[] = [];
    await expect(
      (async () => {
        for await (const c of streamWithRetries(
          afterChunk,
          { model: 'm', messages: [], signal: new AbortController().signal },
          { maxRetries: 3, policy: fast },
        ))
          seen.push(c);
      })(),
    ).rejects.toBe(cut);
    expect(seen).toEqual([text('Hal')]);
    expect(afterChunk.calls).toBe(1);
    const auth = provider([{ fail: http(401) }, { chunks: [text('x')] }]);
    await expect(
      collect(streamWithRetries(auth, { model: 'm', messages: [], signal: new AbortController().signal }, { maxRetries: 3, policy: fast })),
    ).rejects.toMatchObject({ type: 'auth_mismatch' });
    expect(auth.calls).toBe(1);
  });

  it('a cancel during the wait rejects with the signal reason and asks no more', async () => {
    const controller = new AbortController();
    const p = provider([{ fail: http(429, '', '30') }, { chunks: [text('late')] }]);
    const reason = new DOMException('cancelled by test', 'AbortError');
    const run = collect(
      streamWithRetries(p, { model: 'm', messages: [], signal: controller.signal }, { maxRetries: 3, onRetry: () => controller.abort(reason) }),
    );
    await expect(run).rejects.toBe(reason);
    expect(p.calls).toBe(1);
  });
});
