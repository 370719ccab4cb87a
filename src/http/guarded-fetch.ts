import { AppError, BadRequest } from '../ports/errors.js';
import { redactSecrets } from '../shared/redact.js';

/**
 * Fetching a URL a user typed (a provider's base URL to probe, later others), with the guards
 * such a fetch needs:
 *
 * - only `http:` and `https:` (anything else is a BadRequest, 400);
 * - a URL carrying credentials (`https://user:pass@host`) is refused (400): credentials go in
 *   a header, and a refused URL cannot leak them into logs, errors or a redirect;
 * - redirects are never followed (`redirect: 'manual'`): a 3xx is an error naming where it
 *   pointed, so a public URL cannot bounce the server somewhere else;
 * - one deadline (5 s by default) covers connecting, the headers and the whole body;
 * - the body is read as a stream and capped (256 KB by default): a larger answer is cancelled
 *   as soon as it passes the cap, so at most the cap plus one chunk is ever held.
 *
 * Private and loopback addresses are allowed on purpose: local model servers (Ollama, LM
 * Studio, vLLM) are what a probe is for. Failures are FetchGuardError (502), which the app's
 * error handler answers as `{"error": "…"}`. Web APIs only (fetch, streams, AbortSignal).
 */

export const DEFAULT_FETCH_TIMEOUT_MS = 5_000;
export const DEFAULT_FETCH_MAX_BYTES = 256 * 1024;

export interface GuardedFetchInit extends RequestInit {
  /** The deadline for the whole exchange, body included (default 5,000 ms). */
  timeoutMs?: number;
  /** The largest body accepted, in bytes (default 256 KB). */
  maxBytes?: number;
}

export interface GuardedResponse {
  status: number;
  headers: Headers;
  /** The whole body (at most `maxBytes`). */
  body: Uint8Array;
  /** The body as UTF-8 text. */
  text(): string;
  /** The body parsed as JSON; a FetchGuardError when it is not JSON. */
  json(): unknown;
}

export type FetchGuardReason = 'redirect' | 'timeout' | 'too_large' | 'unreachable' | 'not_json';

/** The guarded fetch reached the URL (or tried to) and refused or failed: an upstream problem, 502. */
export class FetchGuardError extends AppError {
  constructor(
    readonly reason: FetchGuardReason,
    message: string,
    /** For `unreachable`: the network error's code when the runtime gives one (ECONNREFUSED, ENOTFOUND…). */
    readonly code?: string,
    /** For `redirect`: the absolute address it pointed to, for a caller that follows redirects itself after checking them. */
    readonly location?: string,
  ) {
    super(502, message);
  }
}

/** The abort reason of the guard's own deadline (a caller's abort keeps its own reason). */
class Deadline extends Error {
  override name = 'TimeoutError';
}

/**
 * Fetches `url` under the guards above and reads the whole (capped) body.
 *
 * @example
 * const res = await guardedFetch(`${baseUrl}/models`, { headers: { Authorization: `Bearer ${key}` } });
 * if (res.status === 200) models = res.json();
 */
export async function guardedFetch(url: string, init: GuardedFetchInit = {}): Promise<GuardedResponse> {
  const target = checkUrl(url);
  const { timeoutMs = DEFAULT_FETCH_TIMEOUT_MS, maxBytes = DEFAULT_FETCH_MAX_BYTES, signal: callerSignal, ...rest } = init;
  const where = describe(target);

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Deadline()), timeoutMs);
  const signal = callerSignal ? AbortSignal.any([deadline.signal, callerSignal]) : deadline.signal;
  const failed = (err: unknown): unknown => {
    if (deadline.signal.aborted) return new FetchGuardError('timeout', `${where} did not answer within ${duration(timeoutMs)} (timed out)`);
    if (callerSignal?.aborted) return callerSignal.reason ?? err;
    if (err instanceof AppError) return err;
    const code = (err as { cause?: { code?: unknown } })?.cause?.code;
    return new FetchGuardError('unreachable', `Could not reach ${where}: ${causeOf(err)}`, typeof code === 'string' ? code : undefined);
  };

  try {
    let res: Response;
    try {
      res = await fetch(target, { ...rest, redirect: 'manual', signal });
    } catch (err) {
      throw failed(err);
    }

    // Browsers hide a manual redirect behind an opaque response; Node and Workers show the 3xx.
    const location = res.headers.get('location');
    if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400 && location !== null)) {
      await res.body?.cancel().catch(() => {});
      const to = location ? describeLocation(location, target) : 'another address';
      throw new FetchGuardError('redirect', `${where} redirected to ${to}; redirects are not followed`, undefined, absoluteLocation(location, target));
    }

    const tooLarge = () => new FetchGuardError('too_large', `The response from ${where} was larger than ${size(maxBytes)}`);
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      await res.body?.cancel().catch(() => {});
      throw tooLarge();
    }

    const chunks: Uint8Array[] = [];
    let total = 0;
    if (res.body) {
      const reader = res.body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          total += value.byteLength;
          if (total > maxBytes) {
            await reader.cancel().catch(() => {});
            throw tooLarge();
          }
          chunks.push(value);
        }
      } catch (err) {
        throw failed(err);
      } finally {
        reader.releaseLock();
      }
    }
    const body = concat(chunks, total);
    let text: string | undefined;
    const readText = () => (text ??= new TextDecoder().decode(body));
    return {
      status: res.status,
      headers: res.headers,
      body,
      text: readText,
      json() {
        try {
          return JSON.parse(readText());
        } catch {
          throw new FetchGuardError('not_json', `${where} did not answer with JSON`);
        }
      },
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The URL when it is one guardedFetch may fetch; BadRequest saying why not otherwise. */
export function checkUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new BadRequest('The URL is not valid; it must be a full http:// or https:// address');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new BadRequest(`Only http:// and https:// URLs can be fetched, not ${parsed.protocol}`);
  }
  if (parsed.username || parsed.password) {
    throw new BadRequest('The URL must not contain a user name or password; send credentials in a header instead');
  }
  return parsed;
}

/** Origin and path for messages: no query (it may carry a token), secrets in the path masked. */
function describe(url: URL): string {
  return redactSecrets(`${url.origin}${url.pathname === '/' ? '' : url.pathname}`);
}

function describeLocation(location: string, base: URL): string {
  try {
    const to = new URL(location, base);
    to.username = '';
    to.password = '';
    return describe(to);
  } catch {
    return 'an invalid address';
  }
}

function absoluteLocation(location: string | null, base: URL): string | undefined {
  if (!location) return undefined;
  try {
    return new URL(location, base).toString();
  } catch {
    return undefined;
  }
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  return redactSecrets(cause?.code ?? cause?.message ?? (err as Error)?.message ?? String(err));
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function size(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} byte${bytes === 1 ? '' : 's'}`;
}

function duration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
