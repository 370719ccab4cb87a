import { z } from 'zod';
import type { PushSubscriptionRecord } from '../../ports/push.js';
import { fromBase64Url } from './vapid.js';

/** A URL-safe base64 value whose decoded length is checked (the browser's key material). */
function keyOf(name: string, bytes: number, check?: (b: Uint8Array) => boolean) {
  return z
    .string({ error: `keys.${name} is required` })
    .max(256, `keys.${name} is too long`)
    .refine(
      (text) => {
        const decoded = fromBase64Url(text);
        return decoded !== null && decoded.length === bytes && (!check || check(decoded));
      },
      { message: `keys.${name} must be URL-safe base64 of ${bytes} bytes${name === 'p256dh' ? ' (an uncompressed P-256 point)' : ''}` },
    );
}

/** The browser's `PushSubscription.toJSON()`: `{endpoint, expirationTime, keys: {p256dh, auth}}`. */
export const PushSubscriptionJson = z.object({
  endpoint: z.string({ error: 'endpoint is required' }).min(1, 'endpoint is required').max(2048, 'endpoint is too long'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      p256dh: keyOf('p256dh', 65, (b) => b[0] === 4),
      auth: keyOf('auth', 16),
    },
    { error: 'keys {p256dh, auth} are required' },
  ),
});
export type PushSubscriptionJson = z.infer<typeof PushSubscriptionJson>;

/** "Chrome on Android" from a User-Agent header: a label for the person, never a decision. */
export function userAgentLabel(ua: string | undefined): string {
  if (!ua) return 'Unknown browser';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\/|Chromium\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser';
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Mac OS X|Macintosh/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux|X11/.test(ua)
            ? 'Linux'
            : '';
  return os ? `${browser} on ${os}` : browser;
}

/** Whether a stored value has a subscription record's shape (a hand-edited file or row may not). */
export function isPushSubscriptionRecord(value: unknown): value is PushSubscriptionRecord {
  const v = value as Partial<PushSubscriptionRecord> | null;
  return !!v && typeof v.endpoint === 'string' && typeof v.profile === 'string' && typeof v.keys?.p256dh === 'string' && typeof v.keys?.auth === 'string';
}
