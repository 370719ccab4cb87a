import type { PgMigration } from './index.js';

/**
 * Version 6: public share links (src/ports/share-store.ts), one row per token with its
 * snapshot as JSON text; at most one live link per session.
 */
export const SHARES: PgMigration = {
  version: 6,
  name: 'shares',
  sql: `
CREATE TABLE IF NOT EXISTS hermes_shares (
  token text PRIMARY KEY,
  session_id text NOT NULL,
  profile text NOT NULL,
  revoked_at double precision,
  body text NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS hermes_shares_live ON hermes_shares (session_id) WHERE revoked_at IS NULL;
`,
};
