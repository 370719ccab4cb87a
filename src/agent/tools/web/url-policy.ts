/**
 * Which URLs web_extract may fetch itself (Hermes' tools/url_safety.py, re-expressed over Web
 * APIs). Cloud metadata endpoints are always refused; private, loopback, link-local, CGNAT and
 * other non-public addresses are refused unless `security.allow_private_urls` is on. Host names
 * are judged by the addresses they resolve to when the runtime can resolve (Node passes a
 * resolver; without one only literal addresses and well-known names are judged). Every redirect
 * hop is judged again by the fetcher.
 */

export const BLOCKED_URL_MESSAGE = 'Blocked: URL targets a private or internal network address';

export interface UrlPolicy {
  allowPrivate: boolean;
  /** Resolves a host name to its addresses (Node: dns.lookup all). */
  lookup?: (hostname: string) => Promise<string[]>;
}

const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog']);

type V4 = [number, number, number, number];

function parseV4(s: string): V4 | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return null;
  const parts = m.slice(1).map(Number) as V4;
  return parts.every((n) => n <= 255) ? parts : null;
}

/** IPv6 text → 8 groups, or null; an embedded IPv4 tail is folded into the last two groups. */
function parseV6(s: string): number[] | null {
  let text = s.toLowerCase().split('%')[0] ?? '';
  const v4tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4tail) {
    const v4 = parseV4(v4tail[1]!);
    if (!v4) return null;
    text = `${text.slice(0, -v4tail[1]!.length)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  if (!/^[0-9a-f:]+$/.test(text) || !text.includes(':')) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail].map((g) => Number.parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

function mappedV4(g: number[]): V4 | null {
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255];
  return null;
}

function v4Class(ip: V4): 'metadata' | 'private' | null {
  const [a, b] = ip;
  if (a === 169 && b === 254) return 'metadata'; // link-local, home of cloud metadata endpoints
  if (ip.join('.') === '100.100.100.200') return 'metadata'; // Alibaba Cloud
  if (a === 10 || a === 127 || a === 0 || a >= 224) return 'private';
  if (a === 172 && b >= 16 && b <= 31) return 'private';
  if (a === 192 && b === 168) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // CGNAT (Tailscale, cloud internal)
  if (a === 192 && b === 0 && ip[2] === 0) return 'private';
  if (a === 198 && (b === 18 || b === 19)) return 'private'; // benchmarking (TUN fake-IP)
  return null;
}

/** 'metadata' (always refused), 'private' (refused unless allowed) or null (public) for a literal address. */
export function addressClass(address: string): 'metadata' | 'private' | null {
  const v4 = parseV4(address);
  if (v4) return v4Class(v4);
  const g = parseV6(address);
  if (!g) return null;
  const mapped = mappedV4(g);
  if (mapped) return v4Class(mapped);
  if (g.join(':') === [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254].join(':')) return 'metadata'; // AWS IPv6
  if (g.every((x) => x === 0) || (g.slice(0, 7).every((x) => x === 0) && g[7] === 1)) return 'private';
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00) return 'private';
  return null;
}

function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** Null when `url` may be fetched, else Hermes' refusal. */
export async function urlBlockReason(url: URL, policy: UrlPolicy): Promise<string | null> {
  const host = hostOf(url);
  if (!host || METADATA_HOSTS.has(host)) return BLOCKED_URL_MESSAGE;
  const verdict = (cls: 'metadata' | 'private' | null) => cls === 'metadata' || (cls === 'private' && !policy.allowPrivate);
  if (parseV4(host) || parseV6(host)) return verdict(addressClass(host)) ? BLOCKED_URL_MESSAGE : null;
  if (!policy.allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local'))) {
    return BLOCKED_URL_MESSAGE;
  }
  if (!policy.lookup) return null;
  let addresses: string[];
  try {
    addresses = await policy.lookup(host);
  } catch {
    return `Could not resolve host: ${host}`;
  }
  return addresses.some((a) => verdict(addressClass(a))) ? BLOCKED_URL_MESSAGE : null;
}

/** Query parameter names that only ever carry credentials (page facets such as `key` or `code` are left alone). */
const SENSITIVE_PARAMS = new Set([
  'access_token',
  'api_key',
  'apikey',
  'auth_token',
  'authorization',
  'awsaccesskeyid',
  'client_secret',
  'credential',
  'credentials',
  'jwt',
  'password',
  'passwd',
  'secret',
  'session_id',
  'signature',
  'token',
  'x_amz_security_token',
  'x_amz_signature',
  'x-amz-security-token',
  'x-amz-signature',
]);

/** The first credential-named query parameter that has a value, if any. */
export function sensitiveQueryParam(url: URL): string | null {
  for (const [k, v] of url.searchParams) if (v && SENSITIVE_PARAMS.has(k.toLowerCase())) return k;
  return null;
}

/** Why a URL must not be handed to a hosted (third-party) extract backend, beyond the address rules. */
export function thirdPartyBlockReason(url: URL): string | null {
  if (url.username || url.password) return 'Blocked: credential-bearing URL';
  const key = sensitiveQueryParam(url);
  return key
    ? `Blocked: URL contains a credential-like query parameter (${key}). Hosted extract backends are third-party readers; remove the parameter or use web.extract_backend: local.`
    : null;
}
