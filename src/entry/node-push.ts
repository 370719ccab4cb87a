import type { Config } from '../config.js';
import { NodePushSender } from '../adapters/platform/node-push-sender.js';
import { lookupAddresses } from '../adapters/platform/node-dns.js';
import { endpointRefusal } from '../domain/push/endpoint-policy.js';
import type { Logger } from '../ports/platform.js';
import type { PushService, PushStore } from '../ports/push.js';
import type { AppEvents } from '../runs/app-events.js';
import type { SessionStore } from '../ports/session-store.js';
import type { SettingsStore } from '../ports/settings-store.js';
import { PushNotifier } from '../runs/push-notifier.js';

/** Web Push on Node: subscriptions in the app's storage, endpoints judged by their resolved addresses, web-push to encrypt and sign. */
export function composeNodePush(
  config: Pick<Config, 'push'>,
  parts: { logger: Logger; events: AppEvents; sessions: SessionStore; settings: SettingsStore; store: PushStore },
): PushService {
  const policy = { allowLocal: config.push.allowLocal, lookup: lookupAddresses };
  const refusal = (endpoint: string) => endpointRefusal(endpoint, policy);
  const push: PushService = {
    store: parts.store,
    sender: new NodePushSender({ subject: config.push.subject, refusal }),
    endpointRefusal: refusal,
  };
  // Listens for the process's lifetime (it holds no timers or sockets between sends).
  new PushNotifier({ ...parts, push });
  return push;
}
