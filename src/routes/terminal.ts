import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { authSession } from '../http/auth-guard.js';
import { isNearbyClient } from '../http/client.js';
import { jsonBody, queryParams } from '../http/validate.js';
import { Forbidden, NotAvailable, NotFound, TooLarge } from '../ports/errors.js';
import { HEARTBEAT, RETRY, SSE_HEADERS } from '../runs/sse.js';
import type { TerminalRegistry } from '../terminal/registry.js';
import type { TerminalFrame } from '../terminal/terminal.js';
import { SessionId, requireSession } from './session-common.js';

/** The incumbent's input cap: a paste larger than this is refused with 413. */
export const MAX_INPUT_CHARS = 8192;

export const TERMINAL_REFUSED =
  'The terminal opens only from this machine or a private network, or for a signed-in browser (set a password: HERMES_WEBUI_PASSWORD). HERMES_WEBUI_ONBOARDING_OPEN=1 lifts this on a deliberately exposed server.';
export const TERMINAL_UNAVAILABLE =
  'The embedded terminal needs a machine to run a shell on, and this deployment (Cloudflare Workers) has none; run the Node server for it.';

const Size = z.number().int().min(1).max(10_000);
const StartBody = z.object({ session_id: SessionId, rows: Size.optional(), cols: Size.optional(), restart: z.boolean().optional() });
const InputBody = z.object({ session_id: SessionId, data: z.string() });
const ResizeBody = z.object({ session_id: SessionId, rows: Size, cols: Size });
const IdBody = z.object({ session_id: SessionId });
const OutputQuery = z.object({ session_id: SessionId });

const utf8 = new TextEncoder();
const frameBytes = (f: TerminalFrame) => utf8.encode(`id: ${f.id}\nevent: ${f.event}\ndata: ${JSON.stringify(f.data)}\n\n`);

/** A shell is remote code execution: only from nearby, or signed in (the incumbent's local-origin gate). */
function allowed(c: Context, deps: AppDeps): TerminalRegistry {
  if (!deps.terminals) throw new NotAvailable(TERMINAL_UNAVAILABLE);
  if (!(authSession(c) || deps.options.onboarding?.open || isNearbyClient(c, deps))) throw new Forbidden(TERMINAL_REFUSED);
  return deps.terminals;
}

/**
 * The embedded terminal (the incumbent's paths and shapes): start (or rejoin) the session's
 * shell in its workspace, type into it, resize it, close it, and its output as SSE with numeric
 * ids (Last-Event-ID replays only what is newer) and heartbeats.
 */
export function terminalRoutes(deps: AppDeps) {
  const app = new Hono();

  app.post('/api/terminal/start', async (c) => {
    const terminals = allowed(c, deps);
    const b = await jsonBody(c, StartBody);
    const session = await requireSession(deps, b.session_id);
    const workspace = await deps.files.checkWorkspace(session.workspace || deps.options.defaultWorkspace);
    const term = await terminals.start(b.session_id, workspace, { rows: b.rows ?? 24, cols: b.cols ?? 80 }, b.restart);
    return c.json({
      ok: true,
      session_id: b.session_id,
      workspace: term.workspace,
      running: !term.closed,
      rows: term.rows,
      cols: term.cols,
      engine: await terminals.engine(),
    });
  });

  app.post('/api/terminal/input', async (c) => {
    const terminals = allowed(c, deps);
    const b = await jsonBody(c, InputBody);
    if (b.data.length > MAX_INPUT_CHARS) throw new TooLarge('input too large');
    terminals.require(b.session_id).write(b.data);
    return c.json({ ok: true });
  });

  app.post('/api/terminal/resize', async (c) => {
    const terminals = allowed(c, deps);
    const b = await jsonBody(c, ResizeBody);
    const term = terminals.require(b.session_id);
    terminals.resize(term, b.rows, b.cols);
    return c.json({ ok: true, rows: term.rows, cols: term.cols });
  });

  app.post('/api/terminal/close', async (c) => {
    const terminals = allowed(c, deps);
    const b = await jsonBody(c, IdBody);
    return c.json({ ok: true, closed: terminals.close(b.session_id) });
  });

  app.get('/api/terminal/output', (c) => {
    const terminals = allowed(c, deps);
    const q = queryParams(c, OutputQuery);
    const term = terminals.get(q.session_id);
    if (!term) throw new NotFound('terminal not running');
    const last = c.req.header('Last-Event-ID')?.trim();
    const afterId = last && /^\d+$/.test(last) ? Number(last) : undefined;
    let stop = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let done = false;
        const end = () => {
          if (done) return;
          done = true;
          clearInterval(beat);
          detach();
          try {
            controller.close();
          } catch {
            /* already gone */
          }
        };
        const send = (bytes: Uint8Array) => {
          if (done) return;
          try {
            controller.enqueue(bytes);
          } catch {
            end();
          }
        };
        const beat = setInterval(() => send(HEARTBEAT), terminals.heartbeatMs);
        send(RETRY);
        // Attached at once (replaying the backlog), so the reaper never sees it unwatched.
        const detach = term.attach((f) => {
          send(frameBytes(f));
          if (f.event !== 'output') queueMicrotask(end);
        }, afterId);
        stop = end;
      },
      cancel() {
        stop();
      },
    });
    return new Response(body, { status: 200, headers: SSE_HEADERS });
  });

  return app;
}
