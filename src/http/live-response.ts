import type { LiveClient } from '../runs/live-hub.js';
import { RETRY, SSE_HEADERS } from '../runs/sse.js';

/** Connects a live client (its first bytes are `retry:`); resolves to the function that removes it. */
export type LiveOpen = (client: LiveClient) => Promise<() => void>;

const LIVE_OPEN = Symbol('hermes.liveOpen');

/**
 * An SSE response for one live client: `retry:` first, then whatever `open` sends now and the
 * hub later. The client going away cancels the body, which removes it from the hub.
 *
 * The response also carries `open` itself (see `liveOpenOf`), so a runtime adapter that can
 * write to the connection directly may cancel the body and connect its own client once every
 * middleware has passed the answer: an idle listener then costs its socket and one hub entry
 * instead of a web stream, its reader and their pending promises (about 5 KB each on Node).
 */
export function liveResponse(open: (client: LiveClient) => Promise<() => void>): Response {
  let remove: (() => void) | null = null;
  let gone = false;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(RETRY);
      const client: LiveClient = {
        send(bytes) {
          if (gone) return;
          try {
            controller.enqueue(bytes);
          } catch {
            gone = true;
          }
        },
      };
      const off = await open(client);
      if (gone) off();
      else remove = off;
    },
    cancel() {
      gone = true;
      remove?.();
      remove = null;
    },
  });
  // Long-lived streams leave Connection alone: an explicit close caused reconnect storms (the incumbent's #3103).
  const res = new Response(body, { status: 200, headers: SSE_HEADERS });
  const direct: LiveOpen = (client) => {
    client.send(RETRY);
    return open(client);
  };
  Object.defineProperty(res, LIVE_OPEN, { value: direct });
  return res;
}

/** The live client a response made by `liveResponse` connects, if it is one (and still its own). */
export function liveOpenOf(res: Response): LiveOpen | undefined {
  return (res as unknown as Record<symbol, LiveOpen | undefined>)[LIVE_OPEN];
}
