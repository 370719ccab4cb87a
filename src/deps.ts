import type { AttachmentStore } from './ports/attachment-store.js';
import type { AssetSource, Clock, Logger } from './ports/platform.js';
import type { ProjectStore } from './ports/project-store.js';
import type { SessionStore } from './ports/session-store.js';
import type { SettingsStore } from './ports/settings-store.js';
import type { WorkspaceFiles } from './ports/workspace-files.js';
import type { MediaFiles } from './ports/media-files.js';
import type { WorkspaceStore } from './ports/workspace-store.js';
import type { FolderSuggestions } from './ports/folder-suggestions.js';
import type { AgentRuntime } from './agent/runtime.js';
import type { ProcessRegistry } from './agent/tools/process-registry.js';
import type { AgentBackend } from './agent/backend-choice.js';
import type { RunRegistry } from './runs/registry.js';
import type { InteractionHub } from './runs/interactions.js';
import type { EmbedTokenStore } from './ports/embed-token-store.js';
import type { AuthStore } from './ports/auth-store.js';
import type { AgentSessionSource } from './ports/agent-sessions.js';
import type { AuthConfig } from './config.js';
import type { Compressor } from './ports/compression.js';
import type { Context } from 'hono';
import type { McpService } from './agent/mcp/service.js';
import type { AgentConfigSource } from './agent/config-source.js';
import type { HermesHome, HermesHomes } from './ports/hermes-home.js';
import type { ServerLog } from './ports/server-log.js';

/** Everything the app needs from its runtime; entry files build it from adapters. */
export interface AppDeps {
  sessions: SessionStore;
  settings: SettingsStore;
  projects: ProjectStore;
  workspaces: WorkspaceStore;
  files: WorkspaceFiles;
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
  };
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
  auth?: Partial<AuthConfig> & {
    /** The server listens on a non-loopback address: the password cannot be cleared. */
    publicBind?: boolean;
  };
}
