import { html, type TemplateResult } from 'lit';
import { msg, str } from '@lit/localize';
import type { ProbeResult } from '../api/client.js';

type ProbeFailure = Extract<ProbeResult, { ok: false }>;

/**
 * Where a base URL points, for messages: "http://127.0.0.1:11434/v1" (or what was typed). Never
 * empty in practice (every provider but custom has a default, and custom asks for one first); the
 * fallback is a symbol, not a word, so no translated fragment is set inside another sentence.
 */
function where(baseUrl: string): string {
  return baseUrl.trim() || '…';
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
 * failure; the server's own detail is shown beside it, smaller. Read at render time, so the
 * words follow the current language.
 *
 * @example
 * probeMessage({ ok: false, error: 'connect_refused', detail: 'ECONNREFUSED' }, 'http://127.0.0.1:11434/v1')
 * // → 'Nothing is listening at http://127.0.0.1:11434/v1 — is the server running? …'
 */
export function probeMessage(failure: ProbeFailure, baseUrl: string, providerLabel = msg('The provider')): string {
  const at = where(baseUrl);
  const status = failure.status;
  switch (failure.error) {
    case 'invalid_url':
      return msg(
        str`“${at}” is not a URL Hermes can use. It should look like http://127.0.0.1:11434/v1 (http or https, a host, and usually the /v1 API root).`,
      );
    case 'dns':
      return msg(
        str`The name “${host(at)}” could not be found (DNS). Check the spelling. From inside Docker, use host.docker.internal or the machine’s LAN address instead.`,
      );
    case 'connect_refused':
      return LOOPBACK.test(host(at))
        ? msg(
            str`Nothing is listening at ${at} — is the server running? From Docker use host.docker.internal instead of localhost (on Linux add extra_hosts: "api.local:host-gateway").`,
          )
        : msg(str`Nothing is listening at ${at} — is the server running, and is that the right port? From Docker use host.docker.internal.`);
    case 'timeout':
      return msg(str`${at} did not answer in time. The server may be busy loading a model, or a firewall is dropping the connection. Try again in a moment.`);
    case 'http_4xx':
      if (status === 401 || status === 403)
        return msg(str`${providerLabel} answered, but the key was refused (HTTP ${status}). Check the API key — copy it again, without spaces.`);
      if (status === 404) return msg(str`${at} has no model list (HTTP 404) — is it the API root (…/v1)?`);
      if (status === 429) return msg(str`${providerLabel} is limiting requests right now (HTTP 429). Wait a moment and test again.`);
      return status
        ? msg(str`${providerLabel} refused the request (HTTP ${status}). Check the base URL and the key.`)
        : msg(str`${providerLabel} refused the request. Check the base URL and the key.`);
    case 'http_5xx':
      return status
        ? msg(str`${providerLabel} had an error of its own (HTTP ${status}). It is not your settings; try again in a moment.`)
        : msg(str`${providerLabel} had an error of its own. It is not your settings; try again in a moment.`);
    case 'parse':
      return msg('That URL answered, but not with a model list — is it the API root (…/v1)? A web page or a proxy may be answering instead.');
    default:
      return msg(str`Hermes could not reach ${at}. Check the address and that this server can reach it over the network.`);
  }
}

/**
 * The same for a Hermes Agent API server (provider `gateway`): what to check on the Hermes side.
 * `code` spans are written between backticks (see {@link withCode}).
 *
 * @example
 * gatewayProbeMessage({ ok: false, error: 'connect_refused', detail: '' }, 'http://127.0.0.1:8642')
 * // → 'Nothing is listening at http://127.0.0.1:8642 — is `hermes gateway` running with API_SERVER_ENABLED=true?'
 */
export function gatewayProbeMessage(failure: ProbeFailure, baseUrl: string): string {
  const at = where(baseUrl);
  switch (failure.error) {
    case 'invalid_url':
      return msg(str`“${at}” is not a URL Hermes can use. It should look like http://127.0.0.1:8642 (http or https and a host; no /v1).`);
    case 'connect_refused':
      return msg(str`Nothing is listening at ${at} — is \`hermes gateway\` running with \`API_SERVER_ENABLED=true\`?`);
    case 'http_4xx':
      return msg(
        'Hermes Agent answered, but the API server refused the key (`API_SERVER_KEY`). Type the key from Hermes’ .env, or leave it empty to use the one already saved.',
      );
    case 'timeout':
      return msg(str`${at} did not answer in time. Is it Hermes’ API server (\`hermes gateway\`), and is nothing blocking the port?`);
    case 'unreachable':
      return msg(str`Hermes Agent could not be used at ${at}.`);
    default:
      return probeMessage(failure, baseUrl, 'Hermes Agent');
  }
}

/**
 * A message with `code` spans, as text and <span class="mono"> parts (translations keep the
 * backticks around code). Code reads left to right even inside a right-to-left sentence.
 */
export function withCode(message: string): Array<string | TemplateResult> {
  return message.split('`').map((part, i) => (i % 2 ? html`<span class="mono" dir="ltr">${part}</span>` : part));
}
