import webpush from 'web-push';
import { guardedFetch } from '../../http/guarded-fetch.js';
import type { PushMessage, PushResult, PushSender, PushSubscriptionRecord, VapidKeys } from '../../ports/push.js';

/** How long one push service gets to answer (they answer in well under a second). */
const SEND_TIMEOUT_MS = 10_000;

/**
 * Sends Web Push on Node: `web-push` builds the request (RFC 8291 aes128gcm payload, RFC 8292
 * VAPID JWT, RFC 8030 TTL/Urgency/Topic headers) and guardedFetch sends it (no redirects, a
 * deadline, a capped answer). The endpoint is judged again right before each send, since its
 * host's addresses may have changed since it was subscribed.
 */
export class NodePushSender implements PushSender {
  constructor(
    private readonly options: {
      /** The VAPID `sub` claim: a mailto: or https: contact for the push service's operator. */
      subject: string;
      refusal: (endpoint: string) => Promise<string | null>;
    },
  ) {}

  async send(subscription: PushSubscriptionRecord, message: PushMessage, vapid: VapidKeys): Promise<PushResult> {
    const refused = await this.options.refusal(subscription.endpoint);
    if (refused) return { kind: 'refused', reason: refused };
    let details: ReturnType<typeof webpush.generateRequestDetails>;
    try {
      details = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: subscription.keys }, message.payload, {
        vapidDetails: { subject: this.options.subject, publicKey: vapid.public_key, privateKey: vapid.private_key },
        TTL: message.ttl,
        urgency: message.urgency,
        contentEncoding: 'aes128gcm',
        ...(message.topic ? { topic: message.topic } : {}),
      });
    } catch (err) {
      return { kind: 'failed', error: `could not encrypt the message: ${(err as Error).message}` };
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(details.headers ?? {})) {
      // fetch sets the length from the body itself.
      if (name.toLowerCase() !== 'content-length') headers.set(name, String(value));
    }
    try {
      const res = await guardedFetch(details.endpoint, {
        method: 'POST',
        headers,
        body: details.body ? new Uint8Array(details.body) : null,
        timeoutMs: SEND_TIMEOUT_MS,
        maxBytes: 16 * 1024,
      });
      return { kind: 'status', status: res.status };
    } catch (err) {
      // A redirect, a timeout or no answer: the push service did not take the message.
      return { kind: 'failed', error: err instanceof Error ? err.message : String(err) };
    }
  }
}
