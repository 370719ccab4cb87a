import type { Logger } from '../ports/platform.js';
import type { TurnChangeFile, TurnChangeRecord, TurnChangeStore } from '../ports/turn-changes.js';
import type { WorkspaceChange, WorkspaceSnapshot, WorkspaceSnapshots } from '../ports/workspace-snapshot.js';
import type { FileChange } from '../shared/file-changes.js';
import { unifiedDiff } from '../domain/unified-diff.js';
import { bytesToBase64 } from '../domain/base64.js';

/** A turn's change recording: how workspaces are snapshotted and where the records go (deps.changes). */
export interface TurnChanges {
  snapshots: WorkspaceSnapshots;
  store: TurnChangeStore;
}

/** What a turn changed, as the message and the `turn_changes` event carry it. */
export interface TurnChangeSummary {
  file_changes: FileChange[];
  additions: number;
  deletions: number;
}

export interface TurnChangeWatch {
  /** Settles (never rejects) once the before snapshot is taken or has failed: the first tool waits for it. */
  readonly ready: Promise<void>;
  /** Takes the after snapshot, stores the record; null when nothing changed or snapshotting failed. */
  finish(): Promise<TurnChangeSummary | null>;
}

/** Contents kept per record; past it, further files are recorded without content (no diff, no undo). */
const MAX_RECORD_BYTES = 32 * 1024 * 1024;

/**
 * Starts watching one turn's workspace: the before snapshot begins now (beside the first model
 * call). A failure anywhere is logged and records nothing; it never reaches the turn.
 */
export function watchTurnChanges(
  changes: TurnChanges,
  turn: { sessionId: string; streamId: string; workspace: string },
  deps: { logger: Logger; now: () => number },
): TurnChangeWatch {
  const fail = (stage: string) => (err: unknown) => {
    deps.logger.error({ msg: `turn change record: ${stage} failed`, session_id: turn.sessionId, stream_id: turn.streamId, error: String(err) });
    return null;
  };
  const before: Promise<WorkspaceSnapshot | null> = changes.snapshots.take(turn.workspace).catch(fail('before snapshot'));
  return {
    ready: before.then(() => {}),
    async finish() {
      const b = await before;
      if (!b) return null;
      try {
        const after = await changes.snapshots.take(turn.workspace, b);
        const found = await changes.snapshots.changes(b, after);
        if (!found.length) return null;
        const record = buildRecord(turn, after.strategy, found, deps.now());
        await changes.store.put(record);
        return summaryOf(record);
      } catch (err) {
        return fail('after snapshot')(err);
      }
    },
  };
}

export function summaryOf(record: TurnChangeRecord): TurnChangeSummary {
  return {
    file_changes: record.files.map((f) => ({
      path: f.path,
      action: f.action,
      ...(f.from ? { from: f.from } : {}),
      additions: f.additions,
      deletions: f.deletions,
    })),
    additions: record.additions,
    deletions: record.deletions,
  };
}

function buildRecord(
  turn: { sessionId: string; streamId: string; workspace: string },
  strategy: TurnChangeRecord['strategy'],
  found: WorkspaceChange[],
  now: number,
): TurnChangeRecord {
  let kept = 0;
  const sorted = [...found].sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  const files = sorted.map((c): TurnChangeFile => {
    const base = { path: c.path, action: c.action, ...(c.from ? { from: c.from } : {}) };
    const size = (c.before?.length ?? 0) + (c.after?.length ?? 0);
    if (c.omitted || kept + size > MAX_RECORD_BYTES) return { ...base, additions: 0, deletions: 0, binary: false, omitted: true, before: null, after: null };
    kept += size;
    const before = textOf(c.before);
    const after = textOf(c.after);
    const binary = before === undefined || after === undefined;
    const counts = binary ? { additions: 0, deletions: 0 } : unifiedDiff(c.from ?? c.path, c.path, before, after);
    return {
      ...base,
      additions: counts.additions,
      deletions: counts.deletions,
      binary,
      before: c.before ? bytesToBase64(c.before) : null,
      after: c.after ? bytesToBase64(c.after) : null,
    };
  });
  return {
    session_id: turn.sessionId,
    stream_id: turn.streamId,
    workspace: turn.workspace,
    strategy,
    created_at: now,
    undone_at: null,
    additions: files.reduce((n, f) => n + f.additions, 0),
    deletions: files.reduce((n, f) => n + f.deletions, 0),
    files,
  };
}

/** UTF-8 text of a side (null: absent); undefined when it is binary (a NUL byte, or not UTF-8). */
export function textOf(bytes: Uint8Array | null): string | null | undefined {
  if (bytes === null) return null;
  if (bytes.subarray(0, 8000).includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
