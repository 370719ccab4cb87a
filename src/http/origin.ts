import type { Context } from 'hono';
import type { AuthConfig } from '../config.js';

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** `host[:port]` of an origin or URL without its scheme's default port; null if not http(s). */
function hostOf(value: string): string | null {
  try {
    const u = new URL(value);
    if (!DEFAULT_PORTS[u.protocol]) return null;
    return u.port && u.port !== DEFAULT_PORTS[u.protocol] ? `${u.hostname}:${u.port}`.toLowerCase() : u.hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** A Host header value without a default port (either scheme's: a TLS proxy may sit in front). */
function bareHost(host: string): string {
  return host.toLowerCase().replace(/:(80|443)$/, '');
}

/**
 * The hosts this server answers as: the request's Host, plus X-Forwarded-Host when
 * HERMES_WEBUI_TRUST_FORWARDED_HOST is set. Schemes are not compared, so a proxy that ends TLS
 * and passes the Host header through needs no configuration.
 */
function ownHosts(c: Context, config: Pick<AuthConfig, 'trustForwardedHost'>): string[] {
  const hosts = [bareHost(c.req.header('Host') ?? new URL(c.req.url).host)];
  if (config.trustForwardedHost) {
    for (const h of (c.req.header('X-Forwarded-Host') ?? '').split(',')) if (h.trim()) hosts.push(bareHost(h.trim()));
  }
  return hosts;
}

function safeOrigin(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/** Whether an Origin (or Referer) value is this server itself, or an origin the operator allowed. */
export function isOwnOrigin(c: Context, value: string, config: Pick<AuthConfig, 'trustForwardedHost' | 'allowedOrigins'>): boolean {
  if (value === 'null') return false;
  let origin: string;
  try {
    origin = new URL(value).origin;
  } catch {
    return false;
  }
  if (config.allowedOrigins.includes(origin)) return true;
  const host = hostOf(value);
  return !!host && ownHosts(c, config).includes(bareHost(host));
}

export const CROSS_ORIGIN_MESSAGE =
  'Cross-origin mismatch - check reverse proxy headers: the request came from another origin. Behind a reverse proxy, ' +
  'pass the Host header through, or set HERMES_WEBUI_ALLOWED_ORIGINS to its public URL (or HERMES_WEBUI_TRUST_FORWARDED_HOST=1).';

/**
 * Where a request says it comes from, for state-changing methods: 'own' (this server or an
 * allowed origin), 'foreign', or 'unknown' (no Origin, Referer or Sec-Fetch-Site: a tool like
 * curl, not a browser page).
 */
export function requestSource(c: Context, config: Pick<AuthConfig, 'trustForwardedHost' | 'allowedOrigins'>): 'own' | 'foreign' | 'unknown' {
  const origin = c.req.header('Origin');
  const referer = c.req.header('Referer');
  const site = c.req.header('Sec-Fetch-Site');
  const claimed = origin ?? referer;
  if (site === 'cross-site') {
    // Only an origin the operator named may come from another site (a proxy on another domain).
    return claimed !== undefined && safeOrigin(claimed) !== null && config.allowedOrigins.includes(safeOrigin(claimed)!) ? 'own' : 'foreign';
  }
  if (claimed !== undefined) return isOwnOrigin(c, claimed, config) ? 'own' : 'foreign';
  if (site === undefined || site === 'none') return 'unknown';
  return site === 'same-origin' ? 'own' : 'foreign';
}
