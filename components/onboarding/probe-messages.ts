import type { ProbeResult } from '../api/client.js';

type ProbeFailure = Extract<ProbeResult, { ok: false }>;

/** Where a base URL points, for messages: "http://127.0.0.1:11434/v1" (or what was typed). */
function where(baseUrl: string): string {
  return baseUrl.trim() || 'that address';
}

function host(baseUrl: string): string {
  try {
    return new URL(baseUrl).hostname || baseUrl;
  } catch {
    return baseUrl;
  }
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?|0\.0\.0\.0)$/i;

/**
 * What a failed connection test means, in words a person can act on. One message per kind of
 * failure; the server's own detail is shown beside it, smaller.
 *
 * @example
 * probeMessage({ ok: false, error: 'connect_refused', detail: 'ECONNREFUSED' }, 'http://127.0.0.1:11434/v1')
 * // → 'Nothing is listening at http://127.0.0.1:11434/v1 — is the server running? …'
 */
export function probeMessage(failure: ProbeFailure, baseUrl: string, providerLabel = 'The provider'): string {
  const at = where(baseUrl);
  const status = failure.status;
  switch (failure.error) {
    case 'invalid_url':
      return `“${at}” is not a URL Hermes can use. It should look like http://127.0.0.1:11434/v1 (http or https, a host, and usually the /v1 API root).`;
    case 'dns':
      return `The name “${host(at)}” could not be found (DNS). Check the spelling. From inside Docker, use host.docker.internal or the machine’s LAN address instead.`;
    case 'connect_refused':
      return LOOPBACK.test(host(at))
        ? `Nothing is listening at ${at} — is the server running? From Docker use host.docker.internal instead of localhost (on Linux add extra_hosts: "api.local:host-gateway").`
        : `Nothing is listening at ${at} — is the server running, and is that the right port? From Docker use host.docker.internal.`;
    case 'timeout':
      return `${at} did not answer in time. The server may be busy loading a model, or a firewall is dropping the connection. Try again in a moment.`;
    case 'http_4xx':
      if (status === 401 || status === 403) return `${providerLabel} answered, but the key was refused (HTTP ${status}). Check the API key — copy it again, without spaces.`;
      if (status === 404) return `${at} has no model list (HTTP 404) — is it the API root (…/v1)?`;
      if (status === 429) return `${providerLabel} is limiting requests right now (HTTP 429). Wait a moment and test again.`;
      return `${providerLabel} refused the request${status ? ` (HTTP ${status})` : ''}. Check the base URL and the key.`;
    case 'http_5xx':
      return `${providerLabel} had an error of its own${status ? ` (HTTP ${status})` : ''}. It is not your settings; try again in a moment.`;
    case 'parse':
      return `That URL answered, but not with a model list — is it the API root (…/v1)? A web page or a proxy may be answering instead.`;
    case 'unreachable':
    default:
      return `Hermes could not reach ${at}. Check the address and that this server can reach it over the network.`;
  }
}
