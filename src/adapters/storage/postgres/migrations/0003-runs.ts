import type { PgMigration } from './index.js';

/**
 * Version 3: run journals and checkpoints. One row per stream (its session, whether its last
 * event closes it, its checkpoint; written when a run opens, checkpoints or closes, not per token) and one per event. (stream_id, seq) is the primary key, so
 * two instances writing the same event make the second insert fail instead of both landing.
 * `data` is `json`, not `jsonb`: the text is kept as written, so a replayed frame is byte-equal
 * to the one sent live. The partial index keeps unclosed() (run every few seconds on every
 * instance) to the few open streams.
 */
export const RUNS: PgMigration = {
  version: 3,
  name: 'runs',
  sql: `
CREATE TABLE hermes_run_streams (
  stream_id text PRIMARY KEY,
  session_id text NOT NULL,
  closed boolean NOT NULL DEFAULT false,
  checkpoint json,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hermes_run_streams_session ON hermes_run_streams (session_id);
CREATE INDEX hermes_run_streams_open ON hermes_run_streams (stream_id) WHERE NOT closed;
CREATE TABLE hermes_run_events (
  stream_id text NOT NULL REFERENCES hermes_run_streams (stream_id) ON DELETE CASCADE,
  seq integer NOT NULL,
  event text NOT NULL,
  data json NOT NULL,
  at double precision NOT NULL,
  PRIMARY KEY (stream_id, seq)
);
`,
};
