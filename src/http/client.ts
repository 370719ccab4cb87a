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
