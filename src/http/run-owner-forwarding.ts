import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { Cluster, ClusterReply, ClusterRequest } from '../ports/cluster.js';
import type { RunRegistry } from '../runs/registry.js';
import { chatRoutes } from '../routes/chat.js';
import { chatSteerRoutes } from '../routes/chat-steer.js';
import { interactionRoutes } from '../routes/interactions.js';
import { errorResponder } from './errors.js';
import { PROFILE_COOKIE } from './request-home.js';

/**
 * What only the instance running a turn can answer: its approvals and questions wait in that
 * process's memory, and cancel and steer reach its model call. Starting a turn is decided by
 * the run lease and watching by the journal (every instance), so neither is forwarded.
 */
export const OWNER_PATHS = /^\/api\/(chat\/(cancel|steer)|approval\/(pending|respond)|clarify\/(pending|respond)|session\/yolo)$/;

/** How long the receiving instance waits for the owner before answering 503. */
export const OWNER_TIMEOUT_MS = 5_000;

const Id = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);
const Target = z.object({ session_id: Id.optional(), stream_id: Id.optional() });

/**
 * The session a run request is about (its `session_id`, or its stream's), or null when the
 * request does not name one well: the route here then answers it (its 400 or 404).
 */
async function sessionOf(c: Context, registry: RunRegistry): Promise<string | null> {
  let body: unknown = {};
  if (c.req.method === 'POST') {
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return null;
    }
  }
  const fromQuery = Target.safeParse({ session_id: c.req.query('session_id'), stream_id: c.req.query('stream_id') });
  const fromBody = Target.safeParse(body && typeof body === 'object' ? { session_id: (body as Target).session_id, stream_id: (body as Target).stream_id } : {});
  const target = { ...(fromBody.success ? fromBody.data : {}), ...(fromQuery.success ? stripUndefined(fromQuery.data) : {}) };
  if (target.session_id) return target.session_id;
  if (!target.stream_id) return null;
  const local = registry.get(target.stream_id);
  if (local) return local.sessionId;
  return (await registry.journal.read(target.stream_id))?.sessionId ?? null;
}
type Target = z.infer<typeof Target>;

function stripUndefined(t: Target): Target {
  return Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined));
}

/**
 * `deps.forwardRun` for several instances: a run request about a session whose turn another
 * instance owns goes there (`cluster.request`) and the owner's answer is this one's. Auth, CSRF
 * and the body limit were checked here; the owner replays it against its run routes only.
 * A session nobody runs, or that this instance runs, is answered here (null).
 */
export function forwardToRunOwner(deps: { registry: RunRegistry; cluster: Cluster; timeoutMs?: number }): (c: Context) => Promise<Response | null> {
  const { registry, cluster } = deps;
  return async (c) => {
    const ownership = registry.ownership;
    if (!ownership || !OWNER_PATHS.test(c.req.path)) return null;
    const sessionId = await sessionOf(c, registry);
    if (!sessionId || registry.activeFor(sessionId)) return null;
    const owner = await ownership.ownerOf(sessionId);
    if (!owner || owner === cluster.instanceId) return null;
    const url = new URL(c.req.url);
    const request: ClusterRequest = {
      method: c.req.method,
      url: url.pathname + url.search,
      body: c.req.method === 'POST' ? await c.req.text() : null,
      profile: getCookie(c, PROFILE_COOKIE) ?? null,
    };
    let reply: ClusterReply;
    try {
      reply = await cluster.request(owner, request, deps.timeoutMs ?? OWNER_TIMEOUT_MS);
    } catch {
      return c.json({ error: 'the server running this turn did not answer; try again' }, 503);
    }
    return new Response(reply.body, { status: reply.status, headers: { 'Content-Type': 'application/json; charset=UTF-8' } });
  };
}

/**
 * The owner's side: an app of the run routes only, reached through the cluster (never the
 * network), answering requests another instance received and checked.
 */
export function serveRunRequests(deps: AppDeps): (request: ClusterRequest) => Promise<ClusterReply> {
  const app = new Hono();
  app.route('/', chatRoutes(deps));
  app.route('/', chatSteerRoutes(deps));
  app.route('/', interactionRoutes(deps));
  app.notFound((c) => c.json({ error: 'not found' }, 404));
  app.onError(errorResponder(deps.logger));
  return async (request) => {
    const headers: Record<string, string> = {};
    if (request.body !== null) headers['Content-Type'] = 'application/json';
    if (request.profile) headers.Cookie = `${PROFILE_COOKIE}=${request.profile}`;
    // Only the run routes' paths are replayed; anything else is not this channel's business.
    const path = new URL(request.url, 'http://owner').pathname;
    if (!OWNER_PATHS.test(path)) return { status: 404, body: JSON.stringify({ error: 'not found' }) };
    const res = await app.request(request.url, { method: request.method, headers, ...(request.body !== null ? { body: request.body } : {}) });
    return { status: res.status, body: await res.text() };
  };
}
