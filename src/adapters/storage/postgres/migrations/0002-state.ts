import type { PgMigration } from './index.js';

/**
 * Version 2: settings, projects, workspaces, auth, embed tokens, push subscriptions and leases.
 * JSON is kept as `json` (the text as written, key order included), not `jsonb`: the stores
 * hand back what they were given, as the state dir's files do, and never query inside it.
 */
export const STATE: PgMigration = {
  version: 2,
  name: 'state',
  sql: `
-- Small JSON documents by name: settings, the model catalog's cache.
CREATE TABLE IF NOT EXISTS documents (
  name text PRIMARY KEY,
  body json NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The registered workspaces and the last one used: '' is the default list, a profile's own
-- list is keyed by its home root (the state dir keeps it in <home>/webui_state/).
CREATE TABLE IF NOT EXISTS workspaces (
  home text PRIMARY KEY,
  entries json NOT NULL DEFAULT '[]',
  last_used text
);

-- Project groups in creation order ("position"; a replaced project keeps its place).
CREATE TABLE IF NOT EXISTS projects (
  project_id text PRIMARY KEY,
  position bigint GENERATED ALWAYS AS IDENTITY,
  body json NOT NULL
);
CREATE INDEX IF NOT EXISTS projects_by_position ON projects (position);

-- Password sign-in: the two 32-byte keys (written once: the first instance to insert wins),
-- signed-in browsers (expiry in epoch seconds) and failed sign-ins per client address.
CREATE TABLE IF NOT EXISTS auth_keys (
  name text PRIMARY KEY,
  key bytea NOT NULL CHECK (octet_length(key) = 32)
);
CREATE TABLE IF NOT EXISTS auth_sessions (
  token text PRIMARY KEY,
  expires_at double precision NOT NULL
);
CREATE TABLE IF NOT EXISTS auth_failures (
  client text PRIMARY KEY,
  times json NOT NULL
);

-- Embed tokens (only a hash of each secret), one record per row, oldest first.
CREATE TABLE IF NOT EXISTS embed_tokens (
  id text PRIMARY KEY,
  position bigint GENERATED ALWAYS AS IDENTITY,
  body json NOT NULL
);

-- Web Push: the one VAPID key pair (a single row: two instances starting together keep the
-- first pair inserted) and the browsers' subscriptions, per profile.
CREATE TABLE IF NOT EXISTS push_vapid (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  public_key text NOT NULL,
  private_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS push_subscriptions (
  endpoint text PRIMARY KEY,
  position bigint GENERATED ALWAYS AS IDENTITY,
  profile text NOT NULL,
  body json NOT NULL
);
CREATE INDEX IF NOT EXISTS push_subscriptions_by_profile ON push_subscriptions (profile, position);

-- Short exclusive claims (task runs, run ownership): expires_at in epoch milliseconds.
CREATE TABLE IF NOT EXISTS leases (
  key text PRIMARY KEY,
  owner text NOT NULL,
  expires_at double precision NOT NULL
);
`,
};
