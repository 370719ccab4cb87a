import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Clock, Logger } from '../ports/platform.js';
import type { SessionStore } from '../ports/session-store.js';
import type { SettingsStore } from '../ports/settings-store.js';
import type { ProjectStore } from '../ports/project-store.js';
import type { WorkspaceStore } from '../ports/workspace-store.js';
import type { AuthStore } from '../ports/auth-store.js';
import type { EmbedTokenStore } from '../ports/embed-token-store.js';
import type { ShareStore } from '../ports/share-store.js';
import type { PushStore } from '../ports/push.js';
import type { LeaseStore } from '../ports/lease.js';
import type { Cluster } from '../ports/cluster.js';
import type { HermesHome } from '../ports/hermes-home.js';
import type { CatalogCache } from '../agent/catalog/catalog.js';
import { MemoryRunJournal, type RunJournal } from '../runs/journal.js';
import { FsSessionStore } from '../adapters/storage/fs/fs-session-store.js';
import { FsProjectStore, FsSettingsStore, FsWorkspaceStore } from '../adapters/storage/fs/fs-stores.js';
import { FsRunJournal } from '../adapters/storage/fs/fs-run-journal.js';
import { FsLeaseStore } from '../adapters/storage/fs/fs-lease.js';
import { FsEmbedTokenStore } from '../adapters/storage/fs/fs-embed-tokens.js';
import { FsShareStore } from '../adapters/storage/fs/fs-shares.js';
import { FsAuthStore } from '../adapters/storage/fs/fs-auth-store.js';
import { FsPushStore } from '../adapters/storage/fs/fs-push-store.js';
import { FsJsonDocument } from '../adapters/storage/fs/fs-json-document.js';
import { MemorySessionStore } from '../adapters/storage/memory/memory-session-store.js';
import { MemoryProjectStore, MemorySettingsStore, MemoryWorkspaceStore } from '../adapters/storage/memory/memory-stores.js';
import { MemoryLeaseStore } from '../adapters/storage/memory/memory-lease.js';
import { MemoryEmbedTokenStore } from '../adapters/storage/memory/memory-embed-tokens.js';
import { MemoryShareStore } from '../adapters/storage/memory/memory-shares.js';
import { MemoryAuthStore } from '../adapters/storage/memory/memory-auth-store.js';
import { MemoryPushStore } from '../adapters/storage/memory/memory-push-store.js';
import { composePostgresStorage } from './node-postgres.js';
import type { TurnChangeStore } from '../ports/turn-changes.js';
import { MemoryTurnChangeStore } from '../adapters/storage/memory/memory-turn-changes.js';
import { FsTurnChangeStore } from '../adapters/storage/fs/fs-turn-changes.js';

/**
 * Where the app keeps its own state, chosen by HERMES_WEBUI_STORAGE: the incumbent's state dir
 * (one process), memory (tests, throwaway), or Postgres (several instances; `cluster` joins them).
 * Hermes' own files (config.yaml, memories, skills, cron) stay in $HERMES_HOME whichever it is.
 */
export interface NodeStorage {
  sessions: SessionStore;
  settings: SettingsStore;
  projects: ProjectStore;
  workspaces: WorkspaceStore;
  /** A named profile's own workspace list (the state dir keeps it in `<profile home>/webui_state/`). */
  workspacesFor: (home: HermesHome) => WorkspaceStore;
  auth: AuthStore;
  embedTokens: EmbedTokenStore;
  /** Public share links' snapshots. */
  shares: ShareStore;
  pushStore: PushStore;
  journal: RunJournal;
  /** What each turn changed in its workspace (GET /api/session/changes, its undo). */
  turnChanges: TurnChangeStore;
  /** Claims shared by every server on this storage (task runs; on Postgres, run ownership too). */
  leases: LeaseStore;
  /** The model catalog's cache between restarts; absent: in memory only. */
  catalogCache?: CatalogCache;
  /** The other instances on the same database; absent with one process. */
  cluster?: Cluster;
  /**
   * Releases connections (after the sessions store is disposed). `abrupt`: queries in flight are
   * not waited for (Postgres: the pool ends at once; tests use it to model a dead instance).
   */
  close(options?: { abrupt?: boolean }): Promise<void>;
}

/** One value per key, made on first use and kept (one store per profile home, so writes to a file are serialised). */
export function keyedBy<A, V>(key: (arg: A) => string, make: (arg: A) => V): (arg: A) => V {
  const made = new Map<string, V>();
  return (arg) => {
    const k = key(arg);
    let value = made.get(k);
    if (!value) made.set(k, (value = make(arg)));
    return value;
  };
}

/**
 * Builds the stores for `config.storage`. Postgres applies its migrations first (every
 * instance may; they take turns).
 *
 * @example
 * const storage = await composeNodeStorage(config, { logger, clock });
 */
export async function composeNodeStorage(config: Config, parts: { logger: Logger; clock: Clock; instanceId: string }): Promise<NodeStorage> {
  const { logger, clock } = parts;
  const ms = () => clock.now() * 1000;
  if (config.storage === 'postgres') return composePostgresStorage(config, parts);
  if (config.storage === 'memory') {
    return {
      sessions: new MemorySessionStore(clock),
      settings: new MemorySettingsStore(),
      projects: new MemoryProjectStore(),
      workspaces: new MemoryWorkspaceStore(),
      workspacesFor: keyedBy(
        (home) => home.root,
        () => new MemoryWorkspaceStore(),
      ),
      auth: new MemoryAuthStore(),
      embedTokens: new MemoryEmbedTokenStore(),
      shares: new MemoryShareStore(),
      pushStore: new MemoryPushStore(),
      journal: new MemoryRunJournal(),
      turnChanges: new MemoryTurnChangeStore(),
      leases: new MemoryLeaseStore(ms),
      close: async () => {},
    };
  }
  const dir = config.stateDir;
  return {
    sessions: new FsSessionStore({ stateDir: dir, clock, logger }),
    settings: new FsSettingsStore(dir, logger),
    projects: new FsProjectStore(dir, logger),
    workspaces: new FsWorkspaceStore(dir, logger),
    // A named profile's list lives in its home, where the incumbent keeps it (webui_state/).
    workspacesFor: keyedBy(
      (home) => home.root,
      (home) => new FsWorkspaceStore(join(home.root, 'webui_state'), logger),
    ),
    auth: new FsAuthStore(dir, logger),
    embedTokens: new FsEmbedTokenStore(dir, logger),
    shares: new FsShareStore(dir, logger),
    pushStore: new FsPushStore(dir, logger),
    journal: new FsRunJournal(dir, logger),
    turnChanges: new FsTurnChangeStore(dir),
    // A lease file per claim in the state dir: two servers on it never run one job twice.
    leases: new FsLeaseStore(dir, ms),
    catalogCache: new FsJsonDocument(join(dir, 'models_cache.json'), logger),
    close: async () => {},
  };
}
