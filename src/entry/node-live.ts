import { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { liveOpenOf } from '../http/live-response.js';

type NodeFetch = (req: Request, env: { incoming?: unknown; outgoing?: unknown }) => Response | Promise<Response>;

/**
 * Live-sync answers (`/api/sessions/events`, `/api/session/stream`) written straight to Node's
 * response once the app (every middleware: auth, origin, profile, headers, log) has answered.
 * The adapter would pump the web stream through a reader and two pending promises per listener;
 * this keeps one `close` listener and the hub's entry, so 1,000 idle tabs stay within budget.
 * Anything else, or a live answer some middleware replaced, goes through the adapter as it is.
 */
export function directLiveStreams(fetch: NodeFetch): NodeFetch {
  return async (req, env) => {
    const res = await fetch(req, env);
    const open = liveOpenOf(res);
    const out = env?.outgoing;
    if (!open || !(out instanceof ServerResponse) || out.headersSent) return res;
    void res.body?.cancel();
    // Given to writeHead whole (not setHeader), Node keeps only the serialized head per response.
    const head: Record<string, string | string[]> = {};
    for (const [name, value] of res.headers) if (name !== 'set-cookie') head[name] = value;
    const cookies = res.headers.getSetCookie();
    if (cookies.length) head['set-cookie'] = cookies;
    out.writeHead(res.status, head);
    out.flushHeaders();
    let off: (() => void) | null = null;
    let gone = false;
    out.once('close', () => {
      gone = true;
      off?.();
      off = null;
    });
    open({ send: (bytes) => void (gone || out.write(bytes)) }).then(
      (remove) => (gone ? remove() : (off = remove)),
      () => out.destroy(),
    );
    return RESPONSE_ALREADY_SENT;
  };
}
