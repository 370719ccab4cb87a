import type { PgMigration } from './index.js';

/**
 * Version 4: what instances send each other that does not fit a NOTIFY payload (an app event
 * or run request past the size cap): the row is written, its id notified, and the row removed
 * a minute later.
 */
export const CLUSTER: PgMigration = {
  version: 4,
  name: 'cluster',
  sql: `
CREATE TABLE IF NOT EXISTS hermes_cluster_messages (
  id bigserial PRIMARY KEY,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS hermes_cluster_messages_created ON hermes_cluster_messages (created_at);
`,
};
