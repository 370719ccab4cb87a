import type { Cluster } from '../ports/cluster.js';
import type { AppEvents } from './app-events.js';

/**
 * Joins this instance's bus to the others': every event that happened here is published, and
 * every event heard from another instance is emitted here with its `origin`, so live sync
 * shows it. An event with an origin is never published again (no echo between instances), and
 * listeners that act rather than show (Web Push, the session feed's bridge) skip it: the
 * instance where it happened already did. Returns the function that parts them.
 */
export function relayAppEvents(events: AppEvents, cluster: Pick<Cluster, 'publish' | 'onEvent'>): () => void {
  const offLocal = events.on((event) => {
    if (!event.origin) cluster.publish(event);
  });
  const offRemote = cluster.onEvent((event, origin) => events.emit({ ...event, origin }));
  return () => {
    offLocal();
    offRemote();
  };
}
