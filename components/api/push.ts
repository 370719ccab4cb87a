import { request } from './client.js';

/** What POST /api/push/subscribe takes: the browser's PushSubscription JSON. */
export type PushSubscriptionBody = PushSubscriptionJSON;

/** Web Push on the server: its VAPID key, and this browser's subscription (per profile, by the profile cookie). */
export const pushApi = {
  vapidKey: () => request<{ public_key: string }>('GET', '/api/push/vapid-public-key'),
  subscribe: (subscription: PushSubscriptionBody) => request<{ ok: true }>('POST', '/api/push/subscribe', subscription),
  unsubscribe: (endpoint: string) => request<{ ok: true }>('POST', '/api/push/unsubscribe', { endpoint }),
};
