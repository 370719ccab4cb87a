import { addressClass } from '../../agent/tools/web/url-policy.js';

/**
 * Where this server may send Web Push messages. A push endpoint comes from the browser, so it is
 * user input: without `allowLocal` it must be https and every address its host resolves to must
 * be public (no loopback, private, link-local, CGNAT or metadata addresses), judged at subscribe
 * and again at every send (DNS answers change). `allowLocal` (HERMES_WEBUI_PUSH_ALLOW_LOCAL=1,
 * for tests and a LAN push relay) also lets http and local addresses through.
 */
export interface EndpointPolicy {
  allowLocal: boolean;
  /** Resolves a host name to its addresses; without one, only literal addresses and local names are judged. */
  lookup?: (hostname: string) => Promise<string[]>;
}

const MAX_ENDPOINT_CHARS = 2048;

function bareHost(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa|lan)$/;

/** Why `endpoint` may not be used (a sentence naming the rule), or null when it may. */
export async function endpointRefusal(endpoint: string, policy: EndpointPolicy): Promise<string | null> {
  if (endpoint.length > MAX_ENDPOINT_CHARS) return `The push endpoint is longer than ${MAX_ENDPOINT_CHARS} characters`;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'The push endpoint is not a valid URL';
  }
  if (url.username || url.password) return 'The push endpoint must not contain a user name or password';
  if (url.protocol !== 'https:' && !(policy.allowLocal && url.protocol === 'http:')) {
    return policy.allowLocal ? 'The push endpoint must be an http:// or https:// URL' : 'The push endpoint must be an https:// URL';
  }
  if (policy.allowLocal) return null;
  const host = bareHost(url);
  const refused =
    'The push endpoint must be on a public address (loopback, private and link-local addresses are refused; HERMES_WEBUI_PUSH_ALLOW_LOCAL=1 allows them)';
  if (!host || LOCAL_NAME.test(host)) return refused;
  const literal = /^[\d.]+$/.test(host) || host.includes(':');
  if (literal) return addressClass(host) === null ? null : refused;
  if (!policy.lookup) return null;
  let addresses: string[];
  try {
    addresses = await policy.lookup(host);
  } catch {
    return `The push endpoint's host ${host} could not be resolved`;
  }
  if (!addresses.length) return `The push endpoint's host ${host} could not be resolved`;
  return addresses.some((a) => addressClass(a) !== null) ? refused : null;
}
