import type { AttachmentStore } from './ports/attachment-store.js';
import type { AssetSource, Clock, Logger } from './ports/platform.js';
import type { ProjectStore } from './ports/project-store.js';
import type { SessionStore } from './ports/session-store.js';
import type { SettingsStore } from './ports/settings-store.js';
import type { WorkspaceFiles } from './ports/workspace-files.js';
import type { WorkspaceTransfer } from './ports/workspace-transfer.js';
import type { MediaFiles } from './ports/media-files.js';
import type { WorkspaceStore } from './ports/workspace-store.js';
import type { FolderSuggestions } from './ports/folder-suggestions.js';
import type { AgentRuntime } from './agent/runtime.js';
import type { ProcessRegistry } from './agent/tools/process-registry.js';
import type { AgentBackend } from './agent/backend-choice.js';
import type { RunRegistry } from './runs/registry.js';
import type { InteractionHub } from './runs/interactions.js';
import type { EmbedTokenStore } from './ports/embed-token-store.js';
import type { ShareStore } from './ports/share-store.js';
import type { AuthStore } from './ports/auth-store.js';
import type { AgentSessionSource } from './ports/agent-sessions.js';
import type { AuthConfig } from './config.js';
import type { Compressor } from './ports/compression.js';
import type { Context } from 'hono';
import type { McpService } from './agent/mcp/service.js';
import type { AgentConfigSource } from './agent/config-source.js';
import type { HermesHome, HermesHomes } from './ports/hermes-home.js';
import type { ServerLog } from './ports/server-log.js';
import type { AppEvents } from './runs/app-events.js';
import type { CronService } from './domain/cron/types.js';
import type { PushService } from './ports/push.js';
import type { Cluster } from './ports/cluster.js';
import type { GitRunner } from './ports/git.js';
import type { TurnChanges } from './runs/turn-changes.js';
import type { TerminalRegistry } from './terminal/registry.js';
import type { SavedPromptStore } from './ports/saved-prompts.js';
import type { SystemHealth } from './ports/system-health.js';

/** Everything the app needs from its runtime; entry files build it from adapters. */
export interface AppDeps {
  sessions: SessionStore;
  settings: SettingsStore;
  projects: ProjectStore;
  workspaces: WorkspaceStore;
  files: WorkspaceFiles;
  /** Uploads into a workspace folder, archive extraction, folder zips (Workers: 501). */
  transfer: WorkspaceTransfer;
  /** Folder completion for "Add folder…"; absent (no file system): GET /api/workspaces/suggest lists nothing. */
  folders?: FolderSuggestions;
  attachments: AttachmentStore;
  /** Files answers point at (`GET /api/media`); absent where there is no file system (Workers: 501). */
  media?: MediaFiles;
  /**
   * The agent behind chat turns, the runs it is doing, and what they wait on a person for;
   * `backend`: who answers (builtin or a Hermes gateway), fixed by the environment or switchable.
   */
  agent: {
    runtime: AgentRuntime;
    backend: AgentBackend;
    registry: RunRegistry;
    hub: InteractionHub;
    /** The builtin agent's background processes (`terminal` background:true); absent where nothing can spawn. */
    processes?: ProcessRegistry;
    /**
     * Carries on (or closes) one turn whose process died (src/runs/resume-turn.ts): recovery at
     * start calls it, and an instance taking over a dead owner's run. Absent: turns are closed.
     */
    resumeTurn?: (sessionId: string, streamId: string) => Promise<'resumed' | 'closed' | 'skipped'>;
  };
  /**
   * What happens outside any one request (a turn starts or ends, an approval waits, the session
   * list changes, a task finishes): the live channels and notifications listen here.
   */
  events: AppEvents;
  /** Scheduled tasks (cron/jobs.json per profile) and who runs them; absent: /api/crons answers 404. */
  cron?: CronService;
  /** Web Push: VAPID keys, subscriptions per profile, sending; absent (Workers): /api/push/* answers 501. */
  push?: PushService;
  /** The Hermes Agent's own sessions (state.db), listed read-only when the setting is on; absent where there is none. */
  agentSessions?: AgentSessionSource;
  /** The same for any profile's home (its own state.db): Insights reads the request's. Absent: none. */
  agentSessionsFor?: (home: HermesHome) => AgentSessionSource;
  /**
   * Hermes' profiles: each request resolves its own (`requestHome(c, deps)`, from the browser's
   * `hermes_profile` cookie) and passes that home to what it calls.
   */
  homes: HermesHomes;
  /**
   * The default profile's config.yaml and .env, where the deployment has editable ones; absent:
   * the routes that edit config (GET|POST /api/reasoning …) answer 404. Routes use the request's home.
   */
  agentConfig?: AgentConfigSource;
  /**
   * A named profile's own workspace list (`<profile home>/webui_state/`, as the incumbent keeps
   * it); `default` uses `workspaces`. Absent: one list for every profile.
   */
  workspacesFor?: (home: HermesHome) => WorkspaceStore;
  /** MCP servers of each Hermes profile (config.yaml `mcp_servers`) and their connections; absent: /api/mcp answers 404. */
  mcp?: McpService;
  /** Password login's keys, signed-in sessions and failed-login ledger. */
  auth: AuthStore;
  /** The connecting socket's address (the runtime knows it; the core does not). */
  clientAddress?: (c: Context) => string | undefined;
  /** Work that must outlive the request that started it (a chat turn); Workers pass ctx.waitUntil. */
  background?: (work: Promise<unknown>) => void;
  /**
   * Hands a run request (chat, approvals, clarify, yolo) to whoever owns the session's runs —
   * on Workers, the session's Durable Object. Null: answer it here.
   */
  forwardRun?: (c: Context) => Promise<Response | null>;
  /**
   * The other instances sharing this database (Postgres storage): run requests reach the
   * instance that owns the run, live events and stream wake-ups reach every instance. Absent: one process.
   */
  cluster?: Cluster;
  /**
   * git for the workspace features: the git panel's endpoints (src/routes/git*.ts) and a turn's
   * change record in a repository. Absent where there is no git (Workers): those answer 501.
   */
  git?: GitRunner;
  /**
   * What each turn changed in its workspace: snapshots before and after (src/runs/turn-changes.ts)
   * and the records GET /api/session/changes and its undo read. Absent (Workers): nothing recorded, those answer 501.
   */
  changes?: TurnChanges;
  /**
   * The embedded terminal panel's shells (src/terminal, on a PtyHost): one per session, at most
   * 32, closed after 15 minutes unwatched; session delete and shutdown kill them. Absent where
   * nothing can spawn a shell (Workers): /api/terminal/* answers 501 with the reason.
   */
  terminals?: TerminalRegistry;
  /** Releases what the storage holds open (a database pool), after `sessions.dispose()`; absent: nothing to release. */
  closeStorage?: () => Promise<void>;
  clock: Clock;
  logger: Logger;
  /** This server's own log file (GET /api/logs?file=webui); absent where there is none (Workers). */
  serverLog?: ServerLog;
  /**
   * Compresses JSON answers by Accept-Encoding (Node: node:zlib). Absent: answers go out as
   * they are (Workers, whose edge compresses on its own).
   */
  compression?: Compressor;
  /** The built front end; without it only the API is served. */
  assets?: AssetSource;
  /** Cross-origin <hermes-chat>: allowlisted origins and where embed tokens live. Absent: no foreign origin is let in. */
  embed?: { origins: string[]; tokens: EmbedTokenStore };
  /** Public read-only share links (`/share/<token>`). Absent: the share API answers 501. */
  shares?: ShareStore;
  /** Saved prompts per profile home (`webui/saved_prompts.json`); absent (Workers): /api/prompts answers 501. */
  prompts?: SavedPromptStore;
  /** The host's CPU, memory and disk; absent (Workers): GET /api/system/health answers 501. */
  systemHealth?: SystemHealth;
  options: AppOptions;
}

export interface AppOptions {
  /** Workspace for sessions that name none (created by the entry file). */
  defaultWorkspace: string;
  maxUploadBytes: number;
  /** JSON request bodies larger than this are refused with 413. */
  maxJsonBytes?: number;
  version: string;
  /** Password, cookie and origin rules; defaults when absent (no password, 30-day sessions). */
  /** What this deployment can do (Workers: no files, uploads or shell); all true when absent. */
  features?: { files: boolean; uploads: boolean; terminal: boolean };
  /**
   * The machine the server runs on (`platform` as Node names it): skills' `platforms` filter and
   * `~` in `skills.external_dirs`. Absent (Workers): skills limited to a platform are hidden.
   */
  machine?: { platform: string; homeDir: string };
  /** First-run wizard switches (HERMES_WEBUI_SKIP_ONBOARDING, HERMES_WEBUI_ONBOARDING_OPEN). */
  onboarding?: { skip?: boolean; open?: boolean };
  /**
   * `HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE=1`: the git panel may change the repository (stage,
   * unstage, discard, commit, pull, push, checkout). Off: only reads (status, branches, diff).
   */
  gitDestructive?: boolean;
  auth?: Partial<AuthConfig> & {
    /** The server listens on a non-loopback address: the password cannot be cleared. */
    publicBind?: boolean;
  };
}
