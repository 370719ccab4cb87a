import { sessionHome } from '../http/request-home.js';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { AppError, BadRequest, Conflict } from '../ports/errors.js';
import { jsonBody, requiring } from '../http/validate.js';
import { presenter } from '../http/redaction.js';
import type { Session } from '../shared/session.js';
import { NO_MANUAL_COMPRESSION } from '../agent/switching-runtime.js';
import { SessionId, presentSession, requireSession } from './session-common.js';

const FOCUS_MAX = 500;
const Focus = z.string().max(10_000).nullish();
const CompressBody = requiring(['session_id'], z.object({ session_id: SessionId, focus_topic: Focus, topic: Focus }));
const StatusQuery = z.object({ session_id: z.string().min(1, 'session_id is required').pipe(SessionId) });
/** How long a finished job's answer stays readable by every open tab (the incumbent's 10 minutes). */
const JOB_TTL_S = 600;

type Job = {
  session_id: string;
  focus_topic: string | null;
  status: 'running' | 'done' | 'error';
  started_at: number;
  updated_at: number;
  result?: Record<string, unknown>;
  error?: string;
  error_status?: number;
};

/** The conversation messages the model reads (notices for people do not count). */
const conversationLength = (s: Session) =>
  s.messages.filter((m) => (m.role === 'user' || m.role === 'assistant' || m.role === 'tool') && m._error !== true && m._interrupted !== true).length;

/**
 * Manual compression: POST /api/session/compress (synchronous), and the incumbent's async pair
 * POST /api/session/compress/start + GET /api/session/compress/status that `/compress` polls.
 */
export function sessionCompressRoutes(deps: AppDeps) {
  const app = new Hono();
  const jobs = new Map<string, Job>();
  const present = async <T>(value: T): Promise<T> => (await presenter(deps.settings))(value);

  const prune = (now: number) => {
    for (const [sid, job] of jobs) if (job.status !== 'running' && now - job.updated_at > JOB_TTL_S) jobs.delete(sid);
  };

  /** Checks that refuse before any model is asked, so start answers them directly. */
  const admit = async (sid: string) => {
    const session = await requireSession(deps, sid);
    if (deps.agent.registry.activeFor(sid) || session.active_stream_id) throw new Conflict('Session is still streaming; wait for the current turn to finish.');
    const compress = deps.agent.runtime.compress?.bind(deps.agent.runtime);
    if (!compress || (deps.agent.runtime.canCompress && !(await deps.agent.runtime.canCompress()))) throw new BadRequest(NO_MANUAL_COMPRESSION);
    if (conversationLength(session) < 4) throw new BadRequest('Not enough conversation to compress (need at least 4 messages).');
    return { session, compress };
  };

  const run = async (sid: string, focus: string | null) => {
    const { session, compress } = await admit(sid);
    const before = conversationLength(session);
    const done = await compress({ session, focusTopic: focus, signal: new AbortController().signal, home: await sessionHome(deps, session) });
    if (!done) throw new Conflict('Nothing to compress: everything before the last exchange is already summarised.');
    // A turn that started meanwhile changed the transcript: refuse rather than store a stale anchor.
    const saved = await deps.sessions.update(sid, done.patch, { ifUpdatedAt: session.updated_at });
    const headline = `Compressed: ${done.summarised} earlier messages summarised`;
    return {
      ok: true,
      session: await present(presentSession(saved)),
      summary: {
        headline,
        token_line: `${before} messages → ${before - done.summarised} and a summary`,
        note: focus ? `Focus: ${focus}` : null,
        reference_message: done.summary,
        ...(done.failure ? { fallback: true, failure: done.failure } : {}),
      },
      focus_topic: focus,
      usage: { input_tokens: done.tokens.input, output_tokens: done.tokens.output, estimated_cost: done.tokens.cost },
    };
  };

  const focusOf = (b: z.infer<typeof CompressBody>) => (b.focus_topic ?? b.topic ?? '').trim().slice(0, FOCUS_MAX) || null;

  app.post('/api/session/compress', async (c) => {
    const b = await jsonBody(c, CompressBody);
    return c.json(await run(b.session_id, focusOf(b)));
  });

  app.post('/api/session/compress/start', async (c) => {
    const b = await jsonBody(c, CompressBody);
    const sid = b.session_id;
    const now = deps.clock.now();
    prune(now);
    const existing = jobs.get(sid);
    if (existing?.status === 'running') return c.json(payload(existing));
    await admit(sid);
    const job: Job = { session_id: sid, focus_topic: focusOf(b), status: 'running', started_at: now, updated_at: now };
    jobs.set(sid, job);
    const work = run(sid, job.focus_topic).then(
      (result) => Object.assign(job, { status: 'done', result, updated_at: deps.clock.now() }),
      (err) => {
        const status = err instanceof AppError ? err.status : 502;
        if (!(err instanceof AppError)) deps.logger.info({ msg: 'manual compression failed', session_id: sid, error: String((err as Error)?.message ?? err) });
        Object.assign(job, { status: 'error', error: (err as Error)?.message || 'Compression failed', error_status: status, updated_at: deps.clock.now() });
      },
    );
    deps.background?.(work);
    return c.json(payload(job));
  });

  app.get('/api/session/compress/status', async (c) => {
    const q = StatusQuery.safeParse({ session_id: c.req.query('session_id') ?? '' });
    if (!q.success) throw new BadRequest(q.error.issues[0]?.message ?? 'session_id is required');
    prune(deps.clock.now());
    const job = jobs.get(q.data.session_id);
    // Not popped on a read: every open tab sees the same finished answer until the TTL.
    return c.json(job ? payload(job) : { ok: true, status: 'idle', session_id: q.data.session_id });
  });

  return app;
}

/** The incumbent's job payload: the result's fields on done, error and error_status on error. */
function payload(job: Job): Record<string, unknown> {
  const base = {
    ok: job.status !== 'error',
    status: job.status,
    session_id: job.session_id,
    focus_topic: job.focus_topic,
    started_at: job.started_at,
    updated_at: job.updated_at,
  };
  if (job.status === 'done') return { ...base, ...job.result, status: 'done', ok: true };
  if (job.status === 'error') return { ...base, ok: false, error: job.error ?? 'Compression failed', error_status: job.error_status ?? 400 };
  return base;
}
