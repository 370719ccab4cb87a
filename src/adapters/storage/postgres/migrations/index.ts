import { SESSIONS } from './0001-sessions.js';
import { STATE } from './0002-state.js';
import { RUNS } from './0003-runs.js';
import { CLUSTER } from './0004-cluster.js';
import { TURN_CHANGES } from './0005-turn-changes.js';
import { SHARES } from './0006-shares.js';

/** One schema change: applied once, in version order, by applyMigrations(). A new one is a new file here. */
export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly PgMigration[] = [SESSIONS, STATE, RUNS, CLUSTER, TURN_CHANGES, SHARES];
