import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { requestHome } from '../http/request-home.js';
import { queryParams } from '../http/validate.js';
import { NotFound } from '../ports/errors.js';
import { liveResponse } from '../http/live-response.js';
import { LiveHub } from '../runs/live-hub.js';
import type { AppEvents } from '../runs/app-events.js';
import type { ServerTurnStarted } from '../shared/live-events.js';
import { SessionId } from './session-common.js';

const SessionStreamQuery = z.object({
  session_id: SessionId,
  // Absent, blank or not a count: the tab did not say, so no catch-up frame (as the incumbent).
  known_count: z.string().max(16).optional(),
});

const hubs = new WeakMap<AppEvents, LiveHub>();

/** The one hub listening on this app's bus (an app built twice over the same deps shares it). */
export function liveHub(deps: Pick<AppDeps, 'events' | 'sessions' | 'logger'>): LiveHub {
  let hub = hubs.get(deps.events);
  if (!hub) {
    hub = new LiveHub({
      events: deps.events,
      messageCount: async (sid) => (await deps.sessions.get(sid))?.messages.length ?? null,
      onError: (err) => deps.logger.error({ msg: 'live session update failed', error: String(err) }),
    });
    hubs.set(deps.events, hub);
  }
  return hub;
}

/**
 * The live channels (the incumbent's paths and events): `GET /api/sessions/events` tells every
 * open tab that the session list of its profile changed; `GET /api/session/stream` tells an open
 * session that a turn started elsewhere, or that it is behind. On Workers each isolate has its own
 * bus: the front Worker's list stream hears the changes made through it (no runs run there).
 */
export function liveEventRoutes(deps: AppDeps) {
  const app = new Hono();
  const hub = liveHub(deps);

  app.get('/api/sessions/events', async (c) => {
    const profile = (await requestHome(c, deps)).profile;
    const lastEventId = c.req.header('Last-Event-ID') ?? undefined;
    return liveResponse(async (client) => hub.addListClient(client, profile, lastEventId));
  });

  app.get('/api/session/stream', async (c) => {
    const q = queryParams(c, SessionStreamQuery);
    const known = q.known_count && /^\d+$/.test(q.known_count) ? Number(q.known_count) : null;
    const session = await deps.sessions.get(q.session_id);
    if (!session) throw new NotFound('Session not found');
    return liveResponse(async (client) => {
      // Subscribed first, so a turn starting while the catch-up frames are built is not missed.
      const off = hub.addSessionClient(q.session_id, client);
      client.send(LiveHub.frame('initial', { session_id: q.session_id }));
      const local = deps.agent.registry.activeFor(q.session_id);
      // Several instances: a turn another one runs shows in the shared session row.
      const remote = !local && deps.cluster && typeof session.active_stream_id === 'string' && session.active_stream_id ? session : null;
      const run = local
        ? { streamId: local.streamId, startedAt: local.startedAt }
        : remote
          ? { streamId: remote.active_stream_id as string, startedAt: Number(remote.pending_started_at) || 0 }
          : null;
      if (run) {
        // A turn already running (its start was sent before this tab listened): the tab attaches to it.
        const replay: ServerTurnStarted = {
          session_id: q.session_id,
          stream_id: run.streamId,
          pending_started_at: run.startedAt,
          source: 'subscribe_recovery',
          recovered: true,
        };
        client.send(LiveHub.frame('server_turn_started', replay));
      } else if (known !== null && session.messages.length > known) {
        // A turn started and finished while this tab was away.
        client.send(
          LiveHub.frame('session-updated', {
            session_id: q.session_id,
            message_count: session.messages.length,
            known_count: known,
            source: 'subscribe_recovery',
          }),
        );
      }
      return off;
    });
  });

  return app;
}
