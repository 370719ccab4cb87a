import type { ServerType } from '@hono/node-server';
import type { Logger } from '../ports/platform.js';
import type { RunRegistry } from '../runs/registry.js';

export interface ShutdownDeps {
  server: ServerType;
  registry: RunRegistry;
  sessions: { dispose(): Promise<void> };
  /** The storage's connections (a database pool), released after the sessions are flushed. */
  closeStorage?: () => Promise<void>;
  /** The task scheduler: it stops ticking before turns are aborted (its runs end as any interrupted turn). */
  scheduler?: { stop(timeoutMs?: number): Promise<void> };
  /** Background processes of the builtin agent: stopped with the server. */
  processes?: { stopAll(): Promise<void> };
  /** The terminal panel's shells: hung up with the server. */
  terminals?: { closeAll(): Promise<void> };
  /** MCP servers the agent started (stdio children are stopped with the server). */
  mcp?: { shutdown(): Promise<void> };
  logger: Logger;
  /** The log file: what it buffered is written before the process exits. */
  logFile?: { flush(): Promise<void> };
  /**
   * HERMES_WEBUI_RESUME_RUNS: turns are stopped as a crash stops them (journal open, session
   * still claimed, watchers let go without a closing event) and carry on at the next start.
   */
  resumeTurns?: boolean;
  /** Where the "Received SIGTERM" line goes. */
  out: (line: string) => void;
  exit: (code: number) => void;
  /** The whole stop must fit in this (a supervisor's kill -9 usually follows SIGTERM by 10 s; Docker's by 10, systemd's by 90). */
  deadlineMs?: number;
}

/**
 * The stop on SIGTERM/SIGINT, within `deadlineMs` (5 s):
 *  1. stop accepting connections; abort every running turn, which stores an interruption notice,
 *     clears the session's active stream and sends `apperror {type: "interrupted"}` with the
 *     stored session to every open stream (what recovery would write after a crash);
 *  2. a turn that has not ended 1 s before the deadline is closed from here (its journal gets the
 *     closing event; the next start's recovery stores the notice and clears the session);
 *  3. once the closing frames are out, connections still open are cut, the session index is
 *     written, and the process exits 0. Past the deadline it exits 1.
 */
export function gracefulShutdown(deps: ShutdownDeps): (signal: string) => Promise<void> {
  const { server, registry, logger } = deps;
  const deadlineMs = deps.deadlineMs ?? 5000;
  let stopping: Promise<void> | null = null;
  const stop = async (signal: string) => {
    deps.out(`Received ${signal}; finishing requests and saving state\n`);
    const started = Date.now();
    const left = () => deadlineMs - (Date.now() - started);
    const force = setTimeout(() => {
      logger.error({ msg: 'shutdown took too long; exiting', deadline_ms: deadlineMs });
      deps.exit(1);
    }, deadlineMs);
    force.unref();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const http = server as unknown as { closeIdleConnections?: () => void; closeAllConnections?: () => void };
    // Idle keep-alive connections would hold close() open.
    http.closeIdleConnections?.();
    // No task starts from here on; the runs in progress are aborted below with every turn.
    const schedulerStopped = deps.scheduler
      ?.stop(Math.max(0, left() - 1500))
      .catch((err) => logger.error({ msg: 'stopping the scheduler failed', error: String(err) }));
    if (deps.resumeTurns) registry.suspendAll();
    else registry.abortAll('server shutting down');
    // TERM to every background process group now, KILL after a grace; bounded by the deadline.
    const processesStopped = deps.processes?.stopAll().catch((err) => logger.error({ msg: 'stopping processes failed', error: String(err) }));
    const terminalsClosed = deps.terminals?.closeAll().catch((err) => logger.error({ msg: 'closing terminals failed', error: String(err) }));
    if (!(await registry.whenIdle(Math.max(0, left() - 1000)))) {
      for (const run of registry.active) {
        if (deps.resumeTurns) run.detach();
        else registry.interrupt(run);
      }
    }
    // The closing frames are queued on their sockets: give them a moment to leave, then cut
    // whatever is still open (a stream's keep-alive socket, a slow client).
    const idle = setInterval(() => http.closeIdleConnections?.(), 50);
    await Promise.race([closed, delay(Math.min(500, Math.max(0, left() - 500)))]);
    clearInterval(idle);
    http.closeAllConnections?.();
    // Both bounded: a stdio MCP server that ignores its closed stdin is killed by the SDK after 2 s more.
    await Promise.race([
      Promise.all([
        processesStopped,
        schedulerStopped,
        terminalsClosed,
        deps.mcp?.shutdown().catch((err) => logger.error({ msg: 'mcp shutdown failed', error: String(err) })),
      ]),
      delay(Math.max(0, left() - 200)),
    ]);
    await deps.sessions.dispose().catch((err) => logger.error({ msg: 'dispose failed', error: String(err) }));
    await deps.closeStorage?.().catch((err) => logger.error({ msg: 'closing the storage failed', error: String(err) }));
    await deps.logFile?.flush().catch(() => {});
    clearTimeout(force);
    deps.exit(0);
  };
  return (signal) => (stopping ??= stop(signal));
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
