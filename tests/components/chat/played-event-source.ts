import type { RunEventName, RunEventPayloads } from '../../../src/shared/run-events.js';

/**
 * Stands in for the browser's EventSource (as stubFetch does for fetch): the test plays the
 * server's frames, typed by the run-event contract, into the real RunStream and chat store.
 * Install it with `window.EventSource = PlayedEventSource` (and put the original back after).
 */
export class PlayedEventSource extends EventTarget {
  static last: PlayedEventSource | null = null;
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readyState = 1;
  onerror: ((e: Event) => void) | null = null;
  constructor(readonly url: string) {
    super();
    PlayedEventSource.last = this;
  }
  close() {
    this.readyState = 2;
  }
  play<K extends RunEventName>(event: K, data: RunEventPayloads[K]) {
    this.dispatchEvent(new MessageEvent(event, { data: JSON.stringify(data) }));
  }
}
