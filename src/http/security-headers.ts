import type { MiddlewareHandler } from 'hono';

/**
 * Everything the app loads is its own (KaTeX fonts and highlight.js included), so the policy
 * names no other origin and allows no inline script. Styles allow inline because KaTeX writes
 * style attributes and Lit may use <style> where adoptedStyleSheets are missing.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  // Read aloud plays the audio POST /api/tts answered from a blob: URL.
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=(self)',
  'payment=()',
  'usb=()',
  'interest-cohort=()',
].join(', ');

const EVENT_STREAM = /^text\/event-stream\b/i;

/**
 * The headers every response carries (an event stream only `nosniff`). A response that already
 * set its own policy (raw workspace files use `sandbox`) keeps it. The embed bundle may be framed and loaded elsewhere.
 */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const h = c.res.headers;
    if (!h.has('X-Content-Type-Options')) h.set('X-Content-Type-Options', 'nosniff');
    // An event stream is never a document: the document policies would only add ~600 bytes that
    // Node keeps with every open listener (its serialized head lives as long as the response).
    if (EVENT_STREAM.test(h.get('Content-Type') ?? '')) return;
    const embed = c.req.path.startsWith('/embed/');
    // A response that may be framed by the app itself (a PDF in the transcript) says so itself.
    if (!embed && !h.has('X-Frame-Options')) h.set('X-Frame-Options', 'DENY');
    h.set('Referrer-Policy', 'same-origin');
    h.set('Permissions-Policy', PERMISSIONS_POLICY);
    if (!h.has('Content-Security-Policy'))
      h.set('Content-Security-Policy', embed ? CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'", 'frame-ancestors *') : CONTENT_SECURITY_POLICY);
  };
}
