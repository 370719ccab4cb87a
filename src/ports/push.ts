/**
 * Web Push (RFC 8030 delivery, RFC 8291 payload encryption, RFC 8292 VAPID): this server's key
 * pair and the browsers that asked to be told when a turn ends or an approval waits.
 */

/** The VAPID key pair as raw URL-safe base64: the public key is the 65-byte uncompressed P-256 point, the private key the 32-byte scalar. */
export interface VapidKeys {
  public_key: string;
  private_key: string;
}

/** One browser's PushSubscription, kept per profile. */
export interface PushSubscriptionRecord {
  endpoint: string;
  /** The browser's P-256 public key (65 bytes) and auth secret (16 bytes), URL-safe base64. */
  keys: { p256dh: string; auth: string };
  profile: string;
  /** Seconds since the epoch. */
  created_at: number;
  /** When the browser said the subscription ends (ms since the epoch, as PushSubscription gives it), or null. */
  expiration_time: number | null;
  /** A short label for the browser ("Chrome on Android"), for listing; never used to decide anything. */
  user_agent: string;
}

export interface PushStore {
  /** The key pair, generated on first use and kept from then on (a new pair would orphan every subscription). */
  vapidKeys(): Promise<VapidKeys>;
  /** Every subscription, or those of one profile. */
  list(profile?: string): Promise<PushSubscriptionRecord[]>;
  /** Adds a subscription; one with the same endpoint is replaced (a browser re-subscribing, or moving profile). */
  put(subscription: PushSubscriptionRecord): Promise<void>;
  /** Removes the subscription with this endpoint; false when there was none. */
  remove(endpoint: string): Promise<boolean>;
}

export type PushUrgency = 'very-low' | 'low' | 'normal' | 'high';

export interface PushMessage {
  /** The JSON text the service worker receives (encrypted on the way). */
  payload: string;
  /** Seconds the push service keeps it for an offline device (RFC 8030 TTL). */
  ttl: number;
  urgency: PushUrgency;
  /** A newer message with the same topic replaces an undelivered older one at the push service (≤ 32 URL-safe base64 characters). */
  topic?: string;
}

/**
 * What came of one send: the push service's HTTP status (201 accepted; 404/410 the subscription
 * is gone), `refused` (the endpoint's address is not allowed now) or `failed` (no answer).
 */
export type PushResult = { kind: 'status'; status: number } | { kind: 'refused'; reason: string } | { kind: 'failed'; error: string };

export interface PushSender {
  /** Encrypts and sends one message to one subscription. Never throws. */
  send(subscription: PushSubscriptionRecord, message: PushMessage, vapid: VapidKeys): Promise<PushResult>;
}

/** Web Push as the app sees it (deps.push); absent where the runtime cannot send (Workers: the routes answer 501). */
export interface PushService {
  store: PushStore;
  sender: PushSender;
  /** Why this endpoint may not be subscribed (or sent to), or null when it may: https on a public address unless local endpoints are allowed. */
  endpointRefusal(endpoint: string): Promise<string | null>;
}
