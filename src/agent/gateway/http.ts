import { ProviderError } from '../providers/types.js';
import { failureHint } from '../../shared/server-texts-en.js';
import { redactSecrets } from '../providers/openai.js';

/**
 * HTTP to a Hermes Agent API server (`hermes gateway` with API_SERVER_ENABLED): Web APIs only
 * (fetch, streams, timers), so the same code runs on Node and Workers. Every failure becomes a
 * ProviderError with a hint a person can act on; nothing here waits forever.
 */

export interface GatewayHttpOptions {
  baseUrl: string;
  /** Read for every request, so a key changed in `$HERMES_HOME/.env` applies without a restart. */
  apiKey: () => Promise<string | null>;
  fetch?: typeof fetch;
}

/** How long `/health` and `/v1/capabilities` may take. */
export const DETECT_TIMEOUT_MS = 5000;
const MAX_DETAILS = 1200;

// The hints' English is in src/shared/server-texts-en.ts, with the codes the web app translates.
export { GATEWAY_KEY_HINT, startHint } from '../../shared/server-texts-en.js';

/** A stream that sent nothing, not even a keepalive, for longer than the read timeout. */
export class SilenceError extends Error {
  constructor(readonly ms: number) {
    super(`no data for ${Math.round(ms / 100) / 10} s`);
    this.name = 'SilenceError';
  }
}

export class GatewayHttp {
  readonly baseUrl: string;
  readonly #fetch: typeof fetch;

  constructor(private readonly options: GatewayHttpOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  async key(): Promise<string | null> {
    try {
      return (await this.options.apiKey()) || null;
    } catch {
      return null;
    }
  }

  /**
   * One request. `signal` is the caller's (cancel); `timeoutMs` bounds the wait for the response
   * headers only (the body is the caller's to read). Non-2xx answers are returned, not thrown,
   * so callers can treat some (404 on an optional endpoint) as answers.
   */
  async send(
    method: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal; timeoutMs: number; accept?: string },
  ): Promise<Response> {
    const key = await this.key();
    const headers: Record<string, string> = { Accept: init.accept ?? 'application/json', ...init.headers };
    if (key) headers.Authorization = `Bearer ${key}`;
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new SilenceError(init.timeoutMs)), init.timeoutMs);
    const signal = init.signal ? anySignal([init.signal, timeout.signal]) : timeout.signal;
    try {
      return await this.#fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
        signal,
      });
    } catch (err) {
      if (init.signal?.aborted) throw init.signal.reason ?? err;
      if (timeout.signal.aborted) throw silent(this.baseUrl, init.timeoutMs, `waiting for an answer to ${method} ${path}`);
      throw unreachable(this.baseUrl, err, key);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A request whose JSON answer is needed: non-2xx and unreadable bodies throw ProviderErrors. */
  async json(
    method: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal; timeoutMs: number },
  ): Promise<{ body: Record<string, unknown>; response: Response }> {
    const response = await this.send(method, path, init);
    const text = await response.text().catch(() => '');
    if (!response.ok) throw await this.failure(response, text, `${method} ${path}`);
    try {
      const body = JSON.parse(text) as unknown;
      return { body: body && typeof body === 'object' ? (body as Record<string, unknown>) : {}, response };
    } catch {
      throw malformed(this.baseUrl, `${method} ${path} answered with something that is not JSON: ${text.slice(0, 120)}`);
    }
  }

  /** Classifies a non-2xx answer (its body already read, or read here). */
  async failure(response: Response, body: string | null, what: string): Promise<ProviderError> {
    const text = body ?? (await response.text().catch(() => ''));
    return httpFailure(this.baseUrl, response.status, text, response.headers.get('retry-after'), what, await this.key());
  }
}

/** Aborts when any of `signals` does, with that signal's reason (AbortSignal.any is Node 20.3+). */
export function anySignal(signals: AbortSignal[]): AbortSignal {
  const controller = new AbortController();
  for (const s of signals) {
    if (s.aborted) {
      controller.abort(s.reason);
      return controller.signal;
    }
  }
  const onAbort = (e: Event) => {
    controller.abort((e.target as AbortSignal).reason);
    for (const s of signals) s.removeEventListener('abort', onAbort);
  };
  for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
  return controller.signal;
}

/**
 * Passes `body` through, erroring with SilenceError when no bytes (keepalive comments count)
 * arrive for `ms`. `paused()` stretches the wait while silence is expected: Hermes waiting on
 * a person's approval sends nothing until the answer.
 */
export function withSilenceLimit(body: ReadableStream<Uint8Array>, ms: number, paused: () => boolean = () => false): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  const SILENT = Symbol('silent');
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        pending ??= reader.read();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const silence = new Promise<typeof SILENT>((resolve) => (timer = setTimeout(() => resolve(SILENT), ms)));
        let result: ReadableStreamReadResult<Uint8Array> | typeof SILENT;
        try {
          result = await Promise.race([pending, silence]);
        } catch (err) {
          clearTimeout(timer);
          controller.error(err);
          return;
        }
        clearTimeout(timer);
        if (result === SILENT) {
          if (paused()) continue;
          controller.error(new SilenceError(ms));
          void reader.cancel().catch(() => {});
          return;
        }
        pending = null;
        if (result.done) controller.close();
        else controller.enqueue(result.value);
        return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason).catch(() => {});
    },
  });
}

// ---- Failures, each with what to do about it ---------------------------------------------------

function clean(text: string, key: string | null): string | undefined {
  const out = redactSecrets(text.trim(), key);
  return out ? out.slice(0, MAX_DETAILS) : undefined;
}

/** The server's own words from `{error:{message}}`, `{error}`, `{message}` or `{detail}`. */
function serverMessage(text: string): { message: string; code: string | null } {
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const err = json.error;
    const e = err && typeof err === 'object' ? (err as Record<string, unknown>) : null;
    const message = [e?.message, typeof err === 'string' ? err : null, json.message, json.detail].find((c) => typeof c === 'string' && c.trim()) as
      | string
      | undefined;
    const code = [e?.code, e?.type, json.code].find((c) => typeof c === 'string' && c) as string | undefined;
    if (message) return { message: message.trim(), code: code ?? null };
  } catch {
    // not JSON
  }
  const plain = text.replace(/\s+/g, ' ').trim();
  return { message: plain.length > 200 ? `${plain.slice(0, 200)}…` : plain, code: null };
}

export function httpFailure(baseUrl: string, status: number, body: string, retryAfter: string | null, what: string, key: string | null): ProviderError {
  const { message: said, code } = serverMessage(body);
  const words = redactSecrets(said, key);
  const message = `Hermes Agent answered HTTP ${status} to ${what}${words ? `: ${words}` : ''}`;
  const details = clean(body, key);
  if (status === 401 || status === 403) {
    const hint = failureHint(key ? 'gateway_key_rejected' : 'gateway_key_missing', {});
    return new ProviderError('auth_mismatch', message, hint, status, details);
  }
  if (status === 429) {
    const wait = retryAfter?.trim();
    const concurrency = /concurren|max_concurrent|too many (active )?runs/i.test(said) || code === 'rate_limit_exceeded';
    const busy = concurrency || !said;
    const hint = wait
      ? failureHint(busy ? 'gateway_busy_retry' : 'gateway_rate_limit_retry', { wait: `${wait}${/^\d+(\.\d+)?$/.test(wait) ? ' s' : ''}` })
      : failureHint(busy ? 'gateway_busy' : 'gateway_rate_limit', {});
    return new ProviderError('rate_limit', message, hint, status, details);
  }
  if (status === 404) {
    return new ProviderError('error', message, failureHint('gateway_not_offered', { what, base_url: baseUrl }), status, details);
  }
  if (status === 413) return new ProviderError('error', message, failureHint('gateway_too_large', {}), status, details);
  if (status >= 500) return new ProviderError('error', message, failureHint('gateway_5xx', {}), status, details);
  return new ProviderError('error', message, failureHint('gateway_refused', { status: String(status) }), status, details);
}

export function unreachable(baseUrl: string, err: unknown, key: string | null): ProviderError {
  const e = err as { message?: string; cause?: { code?: string; message?: string } } | undefined;
  const reason = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
  return new ProviderError(
    'no_response',
    `Could not reach Hermes Agent at ${baseUrl}: ${redactSecrets(reason, key)}`,
    failureHint('gateway_unreachable', { base_url: baseUrl }),
    undefined,
    clean([e?.message, e?.cause?.message].filter(Boolean).join(': '), key),
  );
}

export function silent(baseUrl: string, ms: number, doing: string): ProviderError {
  const seconds = Math.round(ms / 100) / 10;
  return new ProviderError(
    'no_response',
    `Hermes Agent went silent: nothing for ${seconds} s while ${doing}`,
    failureHint('gateway_silent', { base_url: baseUrl, seconds: String(seconds) }),
  );
}

export function malformed(baseUrl: string, what: string): ProviderError {
  return new ProviderError('error', `Hermes Agent sent something this WebUI cannot read: ${what}`, failureHint('gateway_malformed', { base_url: baseUrl }));
}

/** Text of a JSON field when it is a non-empty string. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
