import type { FallbackChain } from './fallback.js';
import { ProviderError, type ModelChunk, type ModelProvider, type ModelRequest } from './types.js';

/**
 * Retries of a model call that failed before its answer began: 429 (and 408), 5xx, and a
 * connection reset, refused or timed out. Once a chunk has streamed the failure stands, since
 * the user has already seen part of an answer that a second request would not repeat.
 */

export interface BackoffPolicy {
  /** The first retry's wait; each later one doubles it. */
  baseDelayMs: number;
  /** No computed wait (jitter included) is longer. */
  maxDelayMs: number;
  /** Up to this fraction of the wait is added at random, so sessions hit by one outage spread out. */
  jitterRatio: number;
  /** A Retry-After longer than this is not waited for: the call fails at once with the provider's words. */
  retryAfterCapMs: number;
  /** In [0, 1): injectable so tests can pin the jitter. */
  random: () => number;
  /** Milliseconds since the epoch, for Retry-After given as an HTTP-date. */
  now: () => number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = {
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  jitterRatio: 0.5,
  retryAfterCapMs: 60_000,
  random: Math.random,
  now: Date.now,
};

/** The `retrying` run event's payload: `attempt` of `max` (1-based), why, and the wait before it. */
export interface RetryNotice {
  attempt: number;
  max: number;
  reason: string;
  delay_ms: number;
}

export type RetryVerdict = { retry: false } | { retry: true; reason: string; retryAfterMs: number | null };

const NO: RetryVerdict = { retry: false };

/**
 * Seconds (`120`, `1.5`) or an HTTP-date, as milliseconds from `nowMs` (never negative);
 * null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Date.parse also reads bare numbers and other loose forms: only take what looks like a date.
  if (!/[a-z]/i.test(text)) return null;
  const when = Date.parse(text);
  return Number.isNaN(when) ? null : Math.max(0, when - nowMs);
}

function statusReason(status: number): string | null {
  if (status === 429) return 'rate limited (429)';
  if (status === 408) return 'request timed out (408)';
  // 501 and 505 say the server cannot do this at all; asking again will not change that.
  if (status >= 500 && status <= 599 && status !== 501 && status !== 505) return `server error (${status})`;
  return null;
}

function transportReason(transport: string): string | null {
  if (transport === 'ECONNREFUSED') return 'connection refused';
  if (
    /^(ECONNRESET|EPIPE|ECONNABORTED|UND_ERR_SOCKET)$/.test(transport) ||
    /other side closed|socket hang up|connection reset|network connection lost/i.test(transport)
  ) {
    return 'connection reset';
  }
  if (/^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT)$/.test(transport) || /timed? ?out/i.test(transport)) return 'connection timed out';
  if (transport === 'cut_off') return 'connection closed early';
  if (transport === 'EAI_AGAIN') return 'name lookup failed (temporary)';
  // DNS names that do not exist, TLS failures, refused ports (fetch's "bad port"): not transient.
  return null;
}

/**
 * Whether a failure is worth another request. Only ProviderErrors qualify (anything else is
 * a bug or a cancel); a wrong key or model is never retried, whatever status carried it.
 */
export function classifyFailure(err: unknown, nowMs: number): RetryVerdict {
  if (!(err instanceof ProviderError)) return NO;
  if (err.type === 'auth_mismatch' || err.type === 'model_not_found') return NO;
  const { status, retryAfter, transport } = err.facts;
  if (status !== undefined) {
    const reason = statusReason(status);
    return reason ? { retry: true, reason, retryAfterMs: parseRetryAfter(retryAfter, nowMs) } : NO;
  }
  const reason = transport ? transportReason(transport) : null;
  return reason ? { retry: true, reason, retryAfterMs: null } : NO;
}

/**
 * The wait before retry number `attempt` (1-based): the provider's Retry-After when it gave
 * one (null, i.e. give up, when that is past the cap), else base·2^(attempt−1) plus jitter,
 * capped at `maxDelayMs`.
 */
export function retryDelayMs(verdict: Extract<RetryVerdict, { retry: true }>, attempt: number, policy: BackoffPolicy): number | null {
  if (verdict.retryAfterMs !== null) return verdict.retryAfterMs <= policy.retryAfterCapMs ? verdict.retryAfterMs : null;
  const exponential = Math.min(policy.baseDelayMs * 2 ** Math.max(0, attempt - 1), policy.maxDelayMs);
  return Math.min(policy.maxDelayMs, Math.round(exponential * (1 + policy.jitterRatio * policy.random())));
}

/** Resolves after `ms`, or rejects with the signal's reason the moment it fires. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export interface RetryOptions {
  /** Retries after the first request (`agent.api_max_retries`): 3 means up to 4 requests. */
  maxRetries: number;
  policy?: Partial<BackoffPolicy>;
  /** Called before each wait. */
  onRetry?(notice: RetryNotice): void;
  /**
   * `fallback_providers`: the turn's providers in order. When given, its current route answers
   * (not the `provider` argument), and a failure that retries could not fix moves it on.
   */
  fallback?: FallbackChain;
}

/**
 * `provider.stream(request)`, asked again after a retryable failure that came before the
 * first chunk. The last failure is rethrown as it was; a cancel ends a wait at once.
 */
export async function* streamWithRetries(provider: ModelProvider, request: ModelRequest, options: RetryOptions): AsyncGenerator<ModelChunk> {
  const policy: BackoffPolicy = { ...DEFAULT_BACKOFF, ...options.policy };
  const chain = options.fallback;
  for (let attempt = 1; ; attempt++) {
    let streamed = false;
    const route = chain?.current;
    try {
      for await (const chunk of (route?.provider ?? provider).stream(route ? { ...request, model: route.model } : request)) {
        streamed = true;
        yield chunk;
      }
      return;
    } catch (err) {
      if (streamed || request.signal.aborted) throw err;
      const verdict = attempt > options.maxRetries ? NO : classifyFailure(err, policy.now());
      const delay = verdict.retry ? retryDelayMs(verdict, attempt, policy) : null;
      if (!verdict.retry || delay === null) {
        // Retries cannot fix it (or are spent): the next provider of the chain, with its own retries.
        if (chain?.advance(err)) {
          attempt = 0;
          continue;
        }
        throw err;
      }
      options.onRetry?.({ attempt, max: options.maxRetries, reason: verdict.reason, delay_ms: delay });
      await abortableSleep(delay, request.signal);
    }
  }
}
