import { apiLinkUrl, connectivity } from '../api/client.js';
import { isClosingEvent } from '../../src/shared/run-event-rules.js';
import type { RunEventName, RunEventPayloads } from '../../src/shared/run-events.js';

/**
 * One handler per run event, typed by the contract (src/shared/run-events.ts). Every name is
 * required, so an event added to the contract must be handled (or ignored on purpose) here.
 */
export type RunEventHandlers = { [K in RunEventName]: (data: RunEventPayloads[K]) => void };

export interface RunStreamCallbacks {
  /** Every event, before its handler: the stream is (again) delivering. */
  onEvent?(name: RunEventName): void;
  /** The connection dropped; the browser reconnects and resumes with Last-Event-ID. */
  onReconnecting(): void;
  /** The stream is gone for good without a closing event (the run's outcome is in the stored session). */
  onLost(): void;
}

/**
 * A live run's event stream: one EventSource on `/api/chat/stream`, its frames handed to typed
 * handlers. A drop is resumed by EventSource itself (it resends the last `id:` as
 * Last-Event-ID and the server replays what followed); a closing event closes it.
 */
export class RunStream {
  #source: EventSource | null;

  constructor(
    readonly streamId: string,
    handlers: RunEventHandlers,
    callbacks: RunStreamCallbacks,
  ) {
    const source = new EventSource(apiLinkUrl(`/api/chat/stream?stream_id=${encodeURIComponent(streamId)}`));
    this.#source = source;
    for (const name of Object.keys(handlers) as RunEventName[]) {
      const handler = handlers[name] as (data: unknown) => void;
      source.addEventListener(name, (e) => {
        if (this.#source !== source) return;
        let data: unknown;
        try {
          data = JSON.parse((e as MessageEvent<string>).data);
        } catch {
          return;
        }
        callbacks.onEvent?.(name);
        handler(data);
        if (isClosingEvent(name)) this.close();
      });
    }
    source.onerror = () => {
      if (this.#source !== source) return;
      connectivity.dispatchEvent(new Event('unreachable'));
      if (source.readyState === EventSource.CONNECTING) callbacks.onReconnecting();
      else {
        this.close();
        callbacks.onLost();
      }
    };
  }

  get open(): boolean {
    return this.#source !== null;
  }

  close(): void {
    this.#source?.close();
    this.#source = null;
  }
}
