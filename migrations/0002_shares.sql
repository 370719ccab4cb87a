-- Public share links (src/ports/share-store.ts): one row per token, its snapshot's JSON in
-- "body". "session_id" and "revoked_at" copy the record for the lookups; the partial unique
-- index keeps at most one live link per session.
CREATE TABLE IF NOT EXISTS shares (
  token TEXT PRIMARY KEY NOT NULL,
  session_id TEXT NOT NULL,
  profile TEXT NOT NULL,
  revoked_at REAL,
  body TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS shares_live ON shares (session_id) WHERE revoked_at IS NULL;
