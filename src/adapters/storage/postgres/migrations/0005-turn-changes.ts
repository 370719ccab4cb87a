import type { PgMigration } from './index.js';

/**
 * Version 5: what each turn changed in its workspace (src/ports/turn-changes.ts), one row per
 * turn: the file list with the before/after contents its diffs and undo need, as JSON text.
 */
export const TURN_CHANGES: PgMigration = {
  version: 5,
  name: 'turn_changes',
  sql: `
CREATE TABLE IF NOT EXISTS hermes_turn_changes (
  session_id text NOT NULL,
  stream_id text NOT NULL,
  undone_at double precision,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, stream_id)
);
`,
};
