import type { AuthStore } from '../../../ports/auth-store.js';
import type { EmbedTokenStore } from '../../../ports/embed-token-store.js';
import type { LeaseStore } from '../../../ports/lease.js';
import type { Logger } from '../../../ports/platform.js';
import type { ProjectStore } from '../../../ports/project-store.js';
import type { PushStore } from '../../../ports/push.js';
import type { ShareStore } from '../../../ports/share-store.js';
import type { SettingsStore } from '../../../ports/settings-store.js';
import type { WorkspaceStore } from '../../../ports/workspace-store.js';
import type { Sql } from './pg-client.js';
import { PgAuthStore } from './pg-auth-store.js';
import { PgJsonDocument, PgSettingsStore, PgWorkspaceStore } from './pg-documents.js';
import { PgEmbedTokenStore } from './pg-embed-tokens.js';
import { PgLeaseStore } from './pg-lease.js';
import { PgProjectStore } from './pg-projects.js';
import { PgPushStore } from './pg-push-store.js';
import { PgShareStore } from './pg-shares.js';

export { PgAuthStore, PgEmbedTokenStore, PgJsonDocument, PgLeaseStore, PgProjectStore, PgPushStore, PgSettingsStore, PgShareStore, PgWorkspaceStore };

/** The app's state besides sessions and run journals, as NodeStorage names it. */
export interface PgStateStores {
  settings: SettingsStore;
  projects: ProjectStore;
  workspaces: WorkspaceStore;
  /** A named profile's own workspace list, keyed by its home root. */
  workspacesFor: (home: { root: string }) => WorkspaceStore;
  auth: AuthStore;
  embedTokens: EmbedTokenStore;
  shares: ShareStore;
  pushStore: PushStore;
  leases: LeaseStore;
  catalogCache: PgJsonDocument;
}

/**
 * Every state store over one pool (migration 0002 applied). Leases read the database's clock
 * unless `leaseNow` (epoch ms) is given: one clock for every instance (see PgLeaseStore).
 *
 * @example
 * const state = postgresStateStores(sql, { logger });
 */
export function postgresStateStores(sql: Sql, options: { logger?: Logger; leaseNow?: () => number } = {}): PgStateStores {
  const profiles = new Map<string, PgWorkspaceStore>();
  return {
    settings: new PgSettingsStore(sql),
    projects: new PgProjectStore(sql),
    workspaces: new PgWorkspaceStore(sql),
    workspacesFor: (home) => {
      let store = profiles.get(home.root);
      if (!store) profiles.set(home.root, (store = new PgWorkspaceStore(sql, home.root)));
      return store;
    },
    auth: new PgAuthStore(sql, options.logger),
    embedTokens: new PgEmbedTokenStore(sql),
    shares: new PgShareStore(sql),
    pushStore: new PgPushStore(sql),
    leases: new PgLeaseStore(sql, options.leaseNow),
    catalogCache: new PgJsonDocument(sql, 'models_cache'),
  };
}
