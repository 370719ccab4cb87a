import { requestWorkspaces, sessionHome } from '../http/request-home.js';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadRequest, Conflict, NotFound } from '../ports/errors.js';
import { jsonBody, queryParams } from '../http/validate.js';
import { DEFAULT_TITLE, provisionalTitle } from '../domain/session-rows.js';
import { driveTurn } from '../runs/turn-driver.js';
import { RETRY, SSE_HEADERS, encodeFrame, resumeAfter } from '../runs/sse.js';
import { CancelledByUser, type RunWatcher } from '../runs/run.js';
import { CLOSING_EVENTS, type RunEvent } from '../runs/events.js';
import { RemoteRuns } from '../runs/remote-run.js';
import type { Cluster } from '../ports/cluster.js';
import { SessionId, requireSession } from './session-common.js';
import { presenter } from '../http/redaction.js';
import type { Message } from '../shared/session.js';
import { describeAttachments } from './chat-attachments.js';
import { canonicalFields } from './session-canonical.js';

const Attachment = z.union([
  z.string().min(1),
  z
    .object({
      path: z.string().min(1),
      filename: z.string().optional(),
      name: z.string().optional(),
      mime: z.string().optional(),
      size: z.number().optional(),
      is_image: z.boolean().optional(),
    })
    .passthrough(),
]);

const StartBody = z.object({
  session_id: SessionId,
  message: z.string({ error: 'message is required' }).max(1_000_000),
  model: z.string().min(1).max(256).nullish(),
  model_provider: z.string().max(128).nullish(),
  workspace: z.string().min(1).nullish(),
  attachments: z.array(Attachment).max(20, 'at most 20 attachments').optional(),
  // `/use <skill>` and `/<skill-name>`: the skill the builtin agent invokes for this message (our field; the incumbent has none).
  skill: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .regex(/^[\p{L}\p{N}_.:/-]+$/u, 'skill must be a skill name')
    .nullish(),
});

const StreamQuery = z.object({
  stream_id: z.string({ error: 'stream_id is required' }).regex(/^[A-Za-z0-9_-]{1,128}$/, 'Invalid stream id'),
  after_seq: z.string().optional(),
  after_event_id: z.string().optional(),
  session_id: z.string().optional(),
});
const StreamIdQuery = z.object({ stream_id: StreamQuery.shape.stream_id });
/** The incumbent answers a status question without an id as "not active" (200), not a 400. */
const StatusQuery = z.object({ stream_id: z.union([z.literal(''), StreamQuery.shape.stream_id]).optional() });

const newStreamId = () => crypto.randomUUID().replace(/-/g, '');

/** Chat turns: start one, watch it (SSE, resumable), ask about it, cancel it. */
export function chatRoutes(deps: AppDeps) {
  const app = new Hono();
  const { registry, runtime } = deps.agent;

  app.post('/api/chat/start', async (c) => {
    const b = await jsonBody(c, StartBody);
    const text = b.message.trim();
    // An attachment alone is a message (the model is asked about it).
    if (!text && !b.attachments?.length && !b.skill) throw new BadRequest('message is required');
    const session = await requireSession(deps, b.session_id);
    // A delegate_task child is its parent's work, shown as it ran (view-only, as the incumbent keeps them).
    if (session.session_source === 'subagent') throw new BadRequest('This is a subagent session: it is view-only. Continue in its parent conversation.');
    // A compression snapshot with a live continuation is a record: a turn there would fork the conversation.
    if (session.pre_compression_snapshot === true) {
      const { continuation_session_id } = await canonicalFields(deps, session);
      if (continuation_session_id)
        throw new Conflict('This is an archived snapshot from before compression: it is read-only. Continue in its live conversation.', {
          continuation_session_id,
        });
    }
    const active = registry.activeFor(session.session_id);
    if (active) return c.json({ error: 'session already has an active stream', active_stream_id: active.streamId }, 409);
    const workspace = b.workspace ? await deps.files.checkWorkspace(b.workspace) : session.workspace || deps.options.defaultWorkspace;
    const model = b.model ?? session.model ?? null;
    // The session's profile: its config, keys, memories and skills, whichever profile the browser is in now.
    const home = await sessionHome(deps, session);
    await runtime.check(model, home);
    // Read once per turn: the turn's events (sessions, tool output, titles) are redacted as they are emitted.
    const present = await presenter(deps.settings);

    // The typed text and the list; what the model gets from the files is built per request.
    const attachments = await describeAttachments(deps.attachments, session.session_id, b.attachments ?? []);
    const streamId = newStreamId();
    const run = await registry.beginOwned(session.session_id, streamId, 'webui', async () => (await deps.sessions.get(session.session_id))?.active_stream_id);
    const now = deps.clock.now();
    const userMessage: Message = {
      role: 'user',
      content: text,
      timestamp: now,
      ...(attachments.length ? { attachments } : {}),
      ...(b.skill ? { skill: b.skill } : {}),
    };
    let stored;
    try {
      const retitle = (!session.title || session.title === DEFAULT_TITLE) && !session.manual_title;
      // Durable before the run starts: a crash from here on keeps the user's message.
      stored = await deps.sessions.appendMessages(session.session_id, [userMessage], {
        active_stream_id: streamId,
        pending_started_at: now,
        ...(retitle ? { title: provisionalTitle([userMessage]) ?? DEFAULT_TITLE } : {}),
        ...(b.model ? { model: b.model } : {}),
        ...(b.model_provider ? { model_provider: b.model_provider.toLowerCase() } : {}),
        ...(b.workspace ? { workspace } : {}),
      });
    } catch (err) {
      await registry.end(run, 'errored');
      throw err;
    }
    if (b.workspace) await (await requestWorkspaces(c, deps)).setLast(workspace);
    const driver = {
      sessions: deps.sessions,
      registry,
      logger: deps.logger,
      now: () => deps.clock.now(),
      present,
      ...(deps.changes ? { changes: deps.changes } : {}),
    };
    const turn = driveTurn(driver, runtime, run, {
      session: stored,
      streamId,
      model,
      workspace,
      signal: run.abort.signal,
      home,
    });
    // The turn outlives this request; a runtime that ends work with the response (a Durable Object) is told.
    deps.background?.(turn);
    return c.json({
      stream_id: streamId,
      session_id: session.session_id,
      pending_started_at: now,
      turn_id: streamId,
      title: present(stored.title),
      // The incumbent's names for the model the turn runs with (the session's when the request named none).
      effective_model: model,
      effective_model_provider: b.model_provider?.toLowerCase() ?? stored.model_provider ?? null,
    });
  });

  app.get('/api/chat/stream', async (c) => {
    const q = queryParams(c, StreamQuery);
    const lastEventId = c.req.header('Last-Event-ID') ?? q.after_event_id;
    const live = registry.get(q.stream_id);
    if (live) {
      const after = resumeAfter(q.stream_id, live.lastSeq, q.after_seq, lastEventId);
      return sseResponse((watcher) => live.watch(watcher, after));
    }
    const journal = await registry.journal.read(q.stream_id, q.session_id);
    if (!journal) throw new NotFound('stream not found');
    const events = journal.events;
    const after = resumeAfter(q.stream_id, events.at(-1)?.seq ?? 0, q.after_seq, lastEventId);
    // Not closed and not ours: another instance runs it; follow its journal until it closes.
    const remote = remoteRunsOf(deps);
    if (remote && !closedBy(events)) return sseResponse((watcher) => remote.watch(q.stream_id, events, watcher, after));
    return sseResponse((watcher) => {
      for (const e of events) if (e.seq > after) watcher.send(encodeFrame(q.stream_id, e));
      watcher.close();
      return () => {};
    });
  });

  app.get('/api/chat/stream/status', async (c) => {
    const q = queryParams(c, StatusQuery);
    if (!q.stream_id) return c.json({ active: false, stream_id: '', replay_available: false });
    const live = registry.get(q.stream_id);
    if (live) {
      return c.json({
        active: live.status === 'running',
        stream_id: q.stream_id,
        session_id: live.sessionId,
        replay_available: true,
        journal: { last_seq: live.lastSeq, terminal_state: live.closed ? live.status : null },
      });
    }
    const journal = await registry.journal.read(q.stream_id);
    if (!journal) return c.json({ active: false, stream_id: q.stream_id, replay_available: false });
    const last = journal.events.at(-1);
    const closed = closedBy(journal.events);
    return c.json({
      // Another instance's turn still running (its journal open): as active as one of ours.
      active: !!deps.cluster && !closed,
      stream_id: q.stream_id,
      session_id: journal.sessionId,
      replay_available: true,
      journal: { last_seq: last?.seq ?? 0, terminal_state: closed ? last!.event : null },
    });
  });

  const cancel = async (streamId: string) => {
    const run = registry.get(streamId);
    // A stream that already ended (or never was) is "nothing to cancel", as the incumbent answers it.
    if (!run) return { ok: true, cancelled: false, stream_id: streamId };
    const cancelled = run.status === 'running' && !run.abort.signal.aborted;
    if (cancelled) run.abort.abort(new CancelledByUser());
    return { ok: true, cancelled, stream_id: streamId };
  };
  app.get('/api/chat/cancel', async (c) => c.json(await cancel(queryParams(c, StreamIdQuery).stream_id)));
  app.post('/api/chat/cancel', async (c) => {
    // The id from the query is validated like the GET form's (a bad one is a 400, not a thrown ZodError).
    const id = c.req.query('stream_id') !== undefined ? queryParams(c, StreamIdQuery).stream_id : (await jsonBody(c, StreamIdQuery)).stream_id;
    return c.json(await cancel(id));
  });

  return app;
}

const closedBy = (events: readonly RunEvent[]) => CLOSING_EVENTS.has(events.at(-1)?.event ?? '');

const followers = new WeakMap<Cluster, RemoteRuns>();

/** This instance's followers of other instances' runs (one per cluster), or null with one process. */
function remoteRunsOf(deps: AppDeps): RemoteRuns | null {
  const cluster = deps.cluster;
  if (!cluster) return null;
  let remote = followers.get(cluster);
  if (!remote) {
    remote = new RemoteRuns({
      journal: deps.agent.registry.journal,
      cluster,
      onError: (err) => deps.logger.error({ msg: 'following a run on another instance failed', error: String(err) }),
    });
    followers.set(cluster, remote);
  }
  return remote;
}

/**
 * An SSE response fed by `attach`, which replays and subscribes a watcher. The stream ends
 * when the run closes it; a client that goes away only detaches its watcher.
 */
function sseResponse(attach: (watcher: RunWatcher) => () => void): Response {
  let detach: () => void = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const watcher: RunWatcher = {
        send(frame) {
          if (open) controller.enqueue(frame);
        },
        close() {
          if (!open) return;
          open = false;
          controller.close();
        },
      };
      controller.enqueue(RETRY);
      detach = attach(watcher);
    },
    cancel() {
      detach();
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
