import type { PgMigration } from './index.js';

/**
 * Version 1: the session index and transcripts (PgSessionStore).
 *
 * `sessions` holds one row per session: `meta` is the session JSON without its messages,
 * `list_row` its list row (toRow), both as text so a value damaged outside the app is kept as
 * it is and reported rather than refused or lost; `broken` says whether either is not a JSON
 * object. `version` moves on every update (a trigger, so hand edits count too): instances use
 * it to tell whether the copy they cached is current. `messages` holds one row per message,
 * numbered from 0, so an append inserts rows and never rewrites the transcript.
 *
 * `session_stats.revision` is the list's revision, moved by triggers in the same transaction as
 * the change and stamped on the changed row (`changed_rev`); deletions leave a tombstone. Every
 * instance reads the same revision for the same list, and refreshes its copy of the list with
 * only the rows changed since. `epoch` tells one database's revisions from another's.
 */
export const SESSIONS: PgMigration = {
  version: 1,
  name: 'sessions',
  sql: `
-- True when t is JSON text whose top level is an object (Postgres 15 has no IS JSON OBJECT).
CREATE FUNCTION hermes_is_json_object(t text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  RETURN json_typeof(t::json) = 'object';
EXCEPTION WHEN others THEN
  RETURN false;
END $$;

CREATE TABLE sessions (
  -- "C": ids sort by code point, as the list's tie-break in JavaScript does, whatever the database's locale.
  session_id text COLLATE "C" PRIMARY KEY,
  updated_at double precision NOT NULL,
  archived boolean NOT NULL DEFAULT false,
  project_id text,
  title text NOT NULL,
  list_row text NOT NULL,
  meta text NOT NULL,
  version bigint NOT NULL DEFAULT 1,
  -- The list revision of its last change (a trigger): instances fetch only rows changed since their copy.
  changed_rev bigint NOT NULL DEFAULT 0,
  broken boolean GENERATED ALWAYS AS (
    NOT (coalesce(hermes_is_json_object(meta), false) AND coalesce(hermes_is_json_object(list_row), false))
  ) STORED
);
CREATE INDEX sessions_by_time ON sessions (updated_at DESC, session_id) WHERE NOT broken;
CREATE INDEX sessions_by_change ON sessions (changed_rev);
CREATE INDEX sessions_by_project ON sessions (project_id) WHERE project_id IS NOT NULL;
CREATE INDEX sessions_broken ON sessions (session_id) WHERE broken;

CREATE TABLE messages (
  session_id text COLLATE "C" NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
  seq integer NOT NULL CHECK (seq >= 0),
  body text NOT NULL,
  broken boolean GENERATED ALWAYS AS (NOT coalesce(hermes_is_json_object(body), false)) STORED,
  PRIMARY KEY (session_id, seq)
);
CREATE INDEX messages_broken ON messages (session_id, seq) WHERE broken;

CREATE TABLE session_stats (
  id integer PRIMARY KEY CHECK (id = 1),
  epoch text NOT NULL,
  revision bigint NOT NULL,
  -- Tombstones up to this revision are gone: a copy of the list older than it is read again whole.
  pruned_through bigint NOT NULL
);
INSERT INTO session_stats (id, epoch, revision, pruned_through)
  VALUES (1, replace(gen_random_uuid()::text, '-', ''), 0, 0);

-- Deleted sessions, so an instance's copy of the list learns what left it; kept a day.
CREATE TABLE session_tombstones (
  session_id text COLLATE "C" NOT NULL,
  rev bigint NOT NULL,
  deleted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX session_tombstones_by_rev ON session_tombstones (rev);
CREATE INDEX session_tombstones_by_age ON session_tombstones (deleted_at);

-- Before every insert and update: the next revision, stamped on the row (changed_rev), and the
-- row's own version. The counter row stays locked until the commit, so revisions commit in
-- order: whoever reads revision R sees every row stamped up to R.
CREATE FUNCTION hermes_session_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE session_stats SET revision = revision + 1 WHERE id = 1 RETURNING revision INTO NEW.changed_rev;
  IF TG_OP = 'UPDATE' THEN
    NEW.version := OLD.version + 1;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER sessions_stamp BEFORE INSERT OR UPDATE ON sessions
  FOR EACH ROW EXECUTE FUNCTION hermes_session_stamp();

CREATE FUNCTION hermes_session_gone() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  new_rev bigint;
  pruned bigint;
BEGIN
  UPDATE session_stats SET revision = revision + 1 WHERE id = 1 RETURNING revision INTO new_rev;
  INSERT INTO session_tombstones (session_id, rev) VALUES (OLD.session_id, new_rev);
  WITH gone AS (DELETE FROM session_tombstones WHERE deleted_at < now() - interval '1 day' RETURNING session_tombstones.rev)
    SELECT max(gone.rev) INTO pruned FROM gone;
  IF pruned IS NOT NULL THEN
    UPDATE session_stats SET pruned_through = greatest(pruned_through, pruned) WHERE id = 1;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER sessions_gone AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION hermes_session_gone();

-- TRUNCATE deletes without row triggers: every copy of the list is read again.
CREATE FUNCTION hermes_sessions_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE session_stats SET revision = revision + 1, pruned_through = revision + 1 WHERE id = 1;
  DELETE FROM session_tombstones;
  RETURN NULL;
END $$;
CREATE TRIGGER sessions_truncated AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION hermes_sessions_truncated();
`,
};
