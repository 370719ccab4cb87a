/**
 * The D1 schema, applied at startup by applyMigrations(). Each entry is a copy of a file in
 * migrations/ (the files `wrangler d1 migrations apply` reads); tests/storage/d1.test.ts fails
 * when a copy and its file differ. A new migration is a new numbered file plus its copy here.
 */
export interface Migration {
  /** The file name, as wrangler records it in `d1_migrations`. */
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    name: '0001_init.sql',
    sql: `-- Hermes WebUI on Cloudflare D1: the session index and transcripts, and the small state the
-- Node server keeps in files. Applied by "wrangler d1 migrations apply" or, at startup, by
-- applyMigrations() (src/adapters/storage/d1/migrations.ts) from the identical copy in
-- src/adapters/storage/d1/schema.ts (tests/storage/d1.test.ts fails when the two differ).
-- Both record it in "d1_migrations".

-- One row per session. "meta" is the session JSON without its messages, "list_row" its list
-- row (toRow in src/domain/session-rows.ts), and "version" a random token every write replaces
-- (compare-and-set). "updated_at", "archived", "project_id" and "title" copy the row for
-- ordering, filtering and search.
CREATE TABLE IF NOT EXISTS sessions (
  session_id TEXT PRIMARY KEY NOT NULL,
  updated_at REAL NOT NULL,
  archived INTEGER NOT NULL DEFAULT 0,
  project_id TEXT,
  title TEXT NOT NULL,
  list_row TEXT NOT NULL,
  meta TEXT NOT NULL,
  version TEXT NOT NULL,
  -- 1 when "meta" or "list_row" is not a JSON object (damaged outside the app): such a session
  -- is reported as a problem, left out of the list and never written.
  broken INTEGER GENERATED ALWAYS AS (
    iif(json_valid(meta) AND json_valid(list_row), json_type(meta) <> 'object' OR json_type(list_row) <> 'object', 1)
  ) STORED
);
CREATE INDEX IF NOT EXISTS sessions_by_time ON sessions (updated_at DESC, session_id) WHERE broken = 0;
CREATE INDEX IF NOT EXISTS sessions_active_by_time ON sessions (updated_at DESC, session_id) WHERE broken = 0 AND archived = 0;
CREATE INDEX IF NOT EXISTS sessions_by_project ON sessions (project_id) WHERE project_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS sessions_broken ON sessions (session_id) WHERE broken = 1;

-- The transcripts, one message (its JSON) per row, numbered from 0, so a long conversation
-- never meets D1's row size limit.
CREATE TABLE IF NOT EXISTS messages (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  body TEXT NOT NULL,
  broken INTEGER GENERATED ALWAYS AS (iif(json_valid(body), json_type(body) <> 'object', 1)) VIRTUAL,
  PRIMARY KEY (session_id, seq)
);
CREATE INDEX IF NOT EXISTS messages_broken ON messages (session_id) WHERE broken = 1;

-- The list's revision and counts, kept by the triggers below: any change to "sessions", by this
-- app or by hand, moves the revision, and counting never scans the table.
CREATE TABLE IF NOT EXISTS session_stats (
  id INTEGER PRIMARY KEY NOT NULL,
  revision INTEGER NOT NULL,
  readable INTEGER NOT NULL,
  archived INTEGER NOT NULL
);
INSERT OR IGNORE INTO session_stats (id, revision, readable, archived)
  SELECT 1, abs(random() % 1000000000000),
    (SELECT count(*) FROM sessions WHERE broken = 0),
    (SELECT count(*) FROM sessions WHERE broken = 0 AND archived <> 0);

CREATE TRIGGER IF NOT EXISTS sessions_stats_insert AFTER INSERT ON sessions
BEGIN
  UPDATE session_stats SET
    revision = revision + 1,
    readable = readable + (NEW.broken = 0),
    archived = archived + (NEW.broken = 0 AND NEW.archived <> 0)
  WHERE id = 1;
END;
CREATE TRIGGER IF NOT EXISTS sessions_stats_update AFTER UPDATE ON sessions
BEGIN
  UPDATE session_stats SET
    revision = revision + 1,
    readable = readable + (NEW.broken = 0) - (OLD.broken = 0),
    archived = archived + (NEW.broken = 0 AND NEW.archived <> 0) - (OLD.broken = 0 AND OLD.archived <> 0)
  WHERE id = 1;
END;
CREATE TRIGGER IF NOT EXISTS sessions_stats_delete AFTER DELETE ON sessions
BEGIN
  UPDATE session_stats SET
    revision = revision + 1,
    readable = readable - (OLD.broken = 0),
    archived = archived - (OLD.broken = 0 AND OLD.archived <> 0)
  WHERE id = 1;
END;

-- Small JSON documents by name: settings, workspaces, the last workspace, the model catalog cache.
CREATE TABLE IF NOT EXISTS documents (
  name TEXT PRIMARY KEY NOT NULL,
  body TEXT NOT NULL,
  updated_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- Project groups, listed in creation order ("position"); "body" is the project's JSON.
CREATE TABLE IF NOT EXISTS projects (
  project_id TEXT PRIMARY KEY NOT NULL,
  position INTEGER NOT NULL,
  body TEXT NOT NULL
);

-- Password sign-in: the two 32-byte keys (hex, written once), signed-in browsers, failed sign-ins.
CREATE TABLE IF NOT EXISTS auth_keys (
  name TEXT PRIMARY KEY NOT NULL,
  key_hex TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS auth_sessions (
  token TEXT PRIMARY KEY NOT NULL,
  expires_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS auth_failures (
  client TEXT PRIMARY KEY NOT NULL,
  times TEXT NOT NULL
);

-- Embed tokens (only a hash of each secret), one JSON record per row.
CREATE TABLE IF NOT EXISTS embed_tokens (
  id TEXT PRIMARY KEY NOT NULL,
  body TEXT NOT NULL
);

-- Which session a chat stream belongs to, so a Worker can route a stream id to the session's
-- Durable Object.
CREATE TABLE IF NOT EXISTS run_streams (
  stream_id TEXT PRIMARY KEY NOT NULL,
  session_id TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX IF NOT EXISTS run_streams_by_session ON run_streams (session_id);
`,
  },
  {
    name: '0002_shares.sql',
    sql: `-- Public share links (src/ports/share-store.ts): one row per token, its snapshot's JSON in
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
`,
  },
];
