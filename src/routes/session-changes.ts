import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { Conflict, NotAvailable, NotFound } from '../ports/errors.js';
import type { TurnChangeFile, TurnChangeRecord } from '../ports/turn-changes.js';
import { jsonBody, queryParams } from '../http/validate.js';
import { unifiedDiff } from '../domain/unified-diff.js';
import { base64ToBytes } from '../domain/base64.js';
import { summaryOf, textOf } from '../runs/turn-changes.js';
import { SessionId } from './session-common.js';

const TurnRef = z.object({
  session_id: SessionId,
  stream_id: z.string({ error: 'stream_id is required' }).regex(/^[A-Za-z0-9_-]{1,128}$/, 'Invalid stream id'),
});

/** Past this a file on disk is not read to compare (a record keeps nothing that large). */
const MAX_COMPARE_BYTES = 64 * 1024 * 1024;

/**
 * What one turn changed in its workspace (ours; the incumbent records none): GET the per-file
 * diffs, POST undo to put the files back as they were before the turn — only when none of them
 * changed again since, and never while a turn runs in the session.
 */
export function sessionChangeRoutes(deps: AppDeps) {
  const app = new Hono();
  // One undo at a time per turn: two clicks must not restore twice.
  const undoing = new Set<string>();

  const recordOf = async (sessionId: string, streamId: string): Promise<TurnChangeRecord> => {
    if (!deps.changes) throw new NotAvailable('Turn change records are not available on this deployment (no workspace file system)');
    const record = await deps.changes.store.get(sessionId, streamId);
    if (!record) throw new NotFound('No change record for that turn');
    return record;
  };

  app.get('/api/session/changes', async (c) => {
    const q = queryParams(c, TurnRef);
    const record = await recordOf(q.session_id, q.stream_id);
    return c.json({
      session_id: record.session_id,
      stream_id: record.stream_id,
      ...summaryOf(record),
      undone: record.undone_at !== null,
      files: record.files.map(fileDiff),
    });
  });

  app.post('/api/session/changes/undo', async (c) => {
    const b = await jsonBody(c, TurnRef);
    const record = await recordOf(b.session_id, b.stream_id);
    if (deps.agent.registry.activeFor(b.session_id)) throw new Conflict('A turn is running in this session; wait for it to finish or cancel it first');
    if (record.undone_at !== null) throw new Conflict('already undone');
    const key = `${b.session_id}/${b.stream_id}`;
    if (undoing.has(key)) throw new Conflict('An undo of this turn is in progress');
    undoing.add(key);
    try {
      const files = deps.files;
      const root = record.workspace;
      const undoable = record.files.filter((f) => !f.omitted);
      // Every file must still be as the turn left it; otherwise nothing is touched.
      const conflicts: string[] = [];
      for (const f of undoable) {
        const now = await files.readBytes(root, f.path, MAX_COMPARE_BYTES).catch(() => undefined);
        if (!sameBytes(now, f.after)) conflicts.push(f.path);
        else if (f.action === 'moved' && f.from && (await files.readBytes(root, f.from, MAX_COMPARE_BYTES).catch(() => undefined)) !== null)
          conflicts.push(f.from);
      }
      if (conflicts.length) throw new Conflict('Some files changed again since this turn; nothing was undone', { conflicts });
      const restored: string[] = [];
      for (const f of undoable) {
        if (f.action === 'created') await files.delete(root, f.path, false);
        else if (f.action === 'moved') {
          await files.writeBytes(root, f.from!, base64ToBytes(f.before ?? ''));
          await files.delete(root, f.path, false);
        } else await files.writeBytes(root, f.path, base64ToBytes(f.before ?? ''));
        restored.push(f.action === 'moved' ? f.from! : f.path);
      }
      if (!(await deps.changes!.store.markUndone(b.session_id, b.stream_id, deps.clock.now()))) throw new Conflict('already undone');
      const skipped = record.files.filter((f) => f.omitted).map((f) => f.path);
      return c.json({ ok: true, session_id: b.session_id, stream_id: b.stream_id, restored, ...(skipped.length ? { skipped } : {}) });
    } finally {
      undoing.delete(key);
    }
  });

  return app;
}

/** One file's entry in GET /api/session/changes: its diff drawn from the record's two sides. */
function fileDiff(f: TurnChangeFile) {
  const base = { path: f.path, action: f.action, ...(f.from ? { from: f.from } : {}), additions: f.additions, deletions: f.deletions };
  if (f.omitted) return { ...base, diff: '', truncated: false, binary: false, omitted: true };
  const before = f.before === null ? null : textOf(base64ToBytes(f.before));
  const after = f.after === null ? null : textOf(base64ToBytes(f.after));
  if (f.binary || before === undefined || after === undefined) return { ...base, diff: '', truncated: false, binary: true };
  const d = unifiedDiff(f.from ?? f.path, f.path, before, after);
  return { ...base, diff: d.diff, truncated: d.truncated, binary: false };
}

/** The file on disk (null: absent, undefined: unreadable) equals a side of the record (base64, null: absent). */
function sameBytes(now: Uint8Array | null | undefined, side: string | null): boolean {
  if (now === undefined) return false;
  if (side === null || now === null) return side === null && now === null;
  const want = base64ToBytes(side);
  if (want.length !== now.length) return false;
  for (let i = 0; i < want.length; i++) if (want[i] !== now[i]) return false;
  return true;
}
