import type { Context } from 'hono';
import type { AppDeps } from '../deps.js';

/** 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  return a === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(a);
}

const FORWARDING_HEADERS = ['Forwarded', 'X-Forwarded-For', 'X-Real-IP'];

/**
 * Who is asking: the socket's address (or the first X-Forwarded-For hop when
 * HERMES_WEBUI_TRUST_FORWARDED_FOR is set), and whether the request comes from this machine.
 * A request relayed by a proxy is never "local", even when the proxy runs on loopback.
 */
export function clientOf(c: Context, deps: AppDeps): { address: string; local: boolean } {
  const socket = deps.clientAddress?.(c);
  const forwarded = FORWARDING_HEADERS.some((h) => c.req.header(h) !== undefined);
  if (deps.options.auth?.trustForwardedFor) {
    const first = c.req.header('X-Forwarded-For')?.split(',')[0]?.trim();
    if (first) return { address: first, local: false };
  }
  return { address: socket ?? 'unknown', local: isLoopbackAddress(socket) && !forwarded };
}

/**
 * Loopback, RFC 1918 (10/8, 172.16/12, 192.168/16), IPv4 link-local (169.254/16), IPv6 unique
 * local (fc00::/7) and link-local (fe80::/10), also IPv4-mapped: a machine on the same network.
 */
export function isPrivateAddress(address: string | undefined): boolean {
  if (!address) return false;
  if (isLoopbackAddress(address)) return true;
  const a = address
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(a);
  if (v4) {
    const [x, y] = [Number(v4[1]), Number(v4[2])];
    return x === 10 || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168) || (x === 169 && y === 254);
  }
  if (!a.includes(':')) return false;
  const first = Number.parseInt(a.split(':')[0] || '0', 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}

/**
 * The connecting machine is this one or on a private network. Through a proxy only when
 * HERMES_WEBUI_TRUST_FORWARDED_FOR names the client; an untrusted relay (forwarding headers
 * present) never counts, even from loopback: it could be relaying anyone.
 */
export function isNearbyClient(c: Context, deps: AppDeps): boolean {
  const forwarded = FORWARDING_HEADERS.some((h) => c.req.header(h) !== undefined);
  if (deps.options.auth?.trustForwardedFor) {
    const first = c.req.header('X-Forwarded-For')?.split(',')[0]?.trim();
    if (first) return isPrivateAddress(first);
  }
  return !forwarded && isPrivateAddress(deps.clientAddress?.(c));
}
