import type { AppDeps } from '../deps.js';
import type { Cluster } from '../ports/cluster.js';
import type { LeaseStore } from '../ports/lease.js';
import type { Logger } from '../ports/platform.js';
import type { SessionStore } from '../ports/session-store.js';
import type { RunRegistry } from '../runs/registry.js';
import { RunOwnership } from '../runs/run-ownership.js';
import { RunTakeover, type TakeOver } from '../runs/run-takeover.js';
import { recoverInterruptedTurn } from '../runs/recovery.js';
import { forwardToRunOwner, serveRunRequests } from '../http/run-owner-forwarding.js';

/** Run lease timings (tests shorten them; the defaults take a dead owner's turn over within ~8 s). */
export interface RunLeaseTimings {
  /** A lease's life without renewal (default 6 s). */
  ttlMs?: number;
  /** Renewal period (default a third of the TTL). */
  renewMs?: number;
  /** How often every instance looks for turns nobody holds (default 2 s). */
  takeoverMs?: number;
}

/** The run lease for instances sharing a database: made before the registry, which takes it. */
export function runOwnershipFor(cluster: Cluster | undefined, leases: LeaseStore, logger: Logger, timings: RunLeaseTimings = {}): RunOwnership | undefined {
  if (!cluster) return undefined;
  return new RunOwnership({
    leases,
    owner: cluster.instanceId,
    ...(timings.ttlMs !== undefined ? { ttlMs: timings.ttlMs } : {}),
    ...(timings.renewMs !== undefined ? { renewMs: timings.renewMs } : {}),
    onError: (err, sessionId) => logger.error({ msg: 'renewing a run lease failed', session_id: sessionId, error: String(err) }),
  });
}

/**
 * Joins this instance to the others once its deps exist: run requests about a turn another
 * instance owns go there (`forwardRun`), the ones sent here are answered by the run routes, and
 * turns whose owner died are taken over — the first sweep now, in place of closing every open
 * journal at start. Returns what stops it (before the storage closes).
 */
export async function joinRunCluster(
  deps: AppDeps,
  parts: { cluster: Cluster; registry: RunRegistry; sessions: SessionStore; logger: Logger; now: () => number; takeoverMs?: number; takeOver?: TakeOver },
): Promise<() => void> {
  const { cluster, registry, sessions, logger, now } = parts;
  const ownership = registry.ownership!;
  deps.forwardRun = forwardToRunOwner({ registry, cluster });
  cluster.serve(serveRunRequests(deps));
  // Without a resumer (HERMES_WEBUI_RESUME_RUNS=0) the turn is closed with the usual interruption notice.
  const takeOver: TakeOver =
    parts.takeOver ??
    (async (sid, streamId) => ((await recoverInterruptedTurn({ sessions, journal: registry.journal, logger, now }, sid, streamId)) ? 'closed' : 'skipped'));
  const takeover = new RunTakeover({ registry, ownership, takeOver, logger, ...(parts.takeoverMs !== undefined ? { periodMs: parts.takeoverMs } : {}) });
  await takeover.sweep();
  takeover.start();
  return () => {
    takeover.stop();
    ownership.stop();
  };
}
