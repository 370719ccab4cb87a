/**
 * Cloudflare D1 storage: every store the Workers entry needs, over one D1 binding.
 * Web APIs only. Run `applyMigrations(env.DB)` once per isolate before using the stores.
 */
export type { D1Database, D1PreparedStatement, D1Result, D1ResultMeta } from './d1-types.js';
export {
  applyMigrations,
  appliedMigrations,
  MIGRATIONS,
  MIGRATIONS_TABLE,
  splitSqlStatements,
  type ApplyMigrationsOptions,
  type Migration,
} from './migrations.js';
export { D1SessionStore } from './d1-session-store.js';
export { D1JsonDocument, D1ProjectStore, D1RunStreams, D1SettingsStore, D1WorkspaceStore } from './d1-stores.js';
export { D1AuthStore } from './d1-auth-store.js';
export { D1EmbedTokenStore } from './d1-embed-tokens.js';
export { D1ShareStore } from './d1-shares.js';
