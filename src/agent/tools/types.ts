import type { RunEventName, RunEventPayloads } from '../../shared/run-events.js';
import type { ToolSpec } from '../messages.js';
import type { FileEditReason, FileEditsMode } from './file-edit-policy.js';
import type { HostedBackend, WebConfig } from './web/settings.js';
import type { SubagentSpawner } from './delegate.js';
import type { SessionProcesses } from './process-registry.js';

export interface ExecRequest {
  command: string;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Output past this many characters is cut, keeping head and tail, with a marker between. */
  maxOutputChars: number;
  /** Report the shell's working directory when the command ends (`ExecResult.cwd`), so a `cd` persists. */
  trackCwd?: boolean;
}

export interface ExecResult {
  output: string;
  exitCode: number | null;
  timedOut: boolean;
  truncated: boolean;
  /** With `trackCwd`: the directory the shell ended in (absent when it did not say, e.g. killed). */
  cwd?: string;
}

/** A command started in the background (`terminal` with `background: true`). */
export interface SpawnRequest {
  command: string;
  cwd: string;
  /** Decoded output (stdout and stderr interleaved), as it arrives. */
  onOutput(text: string): void;
  /** Once, when the shell has exited and its output is drained: the exit code, or null with the signal. */
  onExit(exitCode: number | null, signal: string | null): void;
}

export interface SpawnedProcess {
  readonly pid: number;
  /** Writes to its stdin; false when stdin is closed. */
  write(data: string): boolean;
  closeStdin(): void;
  /** Stops the process and everything it started (TERM, then KILL after a grace); resolves once it exited. */
  kill(): Promise<void>;
}

export interface SearchRequest {
  pattern: string;
  /** Absolute directory to search under. */
  path: string;
  target: 'content' | 'files';
  fileGlob?: string;
  limit: number;
  offset: number;
  outputMode: 'content' | 'files_only' | 'count';
  context: number;
  signal: AbortSignal;
}

export interface SearchResult {
  /** content: `path:line:text` lines; files: paths (newest first); count: `path:count`. */
  matches: string[];
  total: number;
  truncated: boolean;
  engine: 'rg' | 'js';
}

/**
 * What the agent's tools need from the machine. Node implements it with the file system and a
 * shell; a runtime without them (Workers) offers only the tools that do not need one.
 */
export interface ToolHost {
  /** The user's home directory, for `~` in paths. */
  readonly homeDir: string;
  exec(request: ExecRequest): Promise<ExecResult>;
  /** Text of a file; null when it does not exist. Throws for directories and unreadable files. */
  readText(path: string): Promise<string | null>;
  /** Writes (creating parent directories). */
  writeText(path: string, content: string): Promise<void>;
  stat(path: string): Promise<{ isFile: boolean; isDir: boolean; size: number } | null>;
  search(request: SearchRequest): Promise<SearchResult>;
  /** Bytes of a file (images for vision_analyze); null when it does not exist. */
  readBytes?(path: string): Promise<Uint8Array | null>;
  /**
   * Files under `root` as `/`-separated relative paths, sorted, following symlinks, never
   * descending into a directory named in `skipDirs`; at most `maxFiles`. [] when root is missing.
   */
  walkFiles?(root: string, options: { skipDirs: ReadonlySet<string>; maxFiles: number }): Promise<string[]>;
  /** The path with every symlink followed (the missing tail kept as given); the file guards judge it too. */
  realPath?(path: string): Promise<string>;
  /**
   * Removes a file, or a directory: with `recursive` its whole tree (a symlink is removed, never
   * followed), without it only when empty. False when there was nothing to remove or the directory
   * was not empty. skill_manage deletes skills and their files with it.
   */
  remove?(path: string, options?: { recursive?: boolean }): Promise<boolean>;
  /** Starts a long-lived command; absent where processes cannot outlive a call. */
  spawn?(request: SpawnRequest): SpawnedProcess;
}

export interface ApprovalRequest {
  command: string;
  description: string;
  pattern_key: string;
  pattern_keys: string[];
  tool: string;
  /** A file edit's preview: the unified diff the call would make, and the path it writes (as shown). */
  diff?: string;
  path?: string;
}

/** A write_file/patch call waiting to be allowed, with the edit already computed (nothing written). */
export interface FileEditRequest {
  tool: 'write_file' | 'patch';
  /** The absolute path it writes. */
  abs: string;
  /** Workspace-relative when inside it, else absolute. */
  path: string;
  reason: FileEditReason;
  diff: string;
}

/** The runtime's side of the file-edit approval (see builtin/file-edit-approval.ts). */
export interface FileEditGate {
  /** `approvals.file_edits`, or `never` while nothing may ask (yolo, `approvals.mode: off`). */
  mode(): FileEditsMode;
  /** Null to write, else what the model is told instead (denied, timed out, nobody to ask). */
  ask(request: FileEditRequest): Promise<string | null>;
}

export type ApprovalChoice = 'once' | 'session' | 'always' | 'deny';

export interface TodoItem {
  id: string;
  content: string;
  status: 'pending' | 'in_progress' | 'completed' | 'cancelled';
}

/** Everything a tool call gets besides its arguments. */
export interface ToolContext {
  sessionId: string;
  /** Absolute path: the session's workspace, the default cwd and base for relative paths. */
  workspace: string;
  /** `$HERMES_HOME` (memories live under it). */
  hermesHome: string;
  host: ToolHost;
  signal: AbortSignal;
  /**
   * Asks the approval gate about a shell command. Resolves to null when it may run, or to a
   * BLOCKED message to return to the model instead.
   */
  checkCommand(command: string): Promise<string | null>;
  /** Asks the user; resolves to their answer, or null when they did not answer in time. */
  clarify(question: string, choices: string[]): Promise<string | null>;
  /** Emits a run event of the contract (e.g. `todo_state`). */
  emit<K extends RunEventName>(event: K, data: RunEventPayloads[K]): void;
  /** The session's todo list, kept across turns. */
  todos: { get(): TodoItem[]; set(items: TodoItem[]): void };
  /** What skills_list/skill_view, session_search and vision_analyze need (knowledge-context.ts). */
  knowledge?: import('./knowledge-context.js').KnowledgeContext;
  /** `HERMES_WRITE_SAFE_ROOT`: when set, the file tools write only below these directories. */
  writeSafeRoots?: string[];
  /** The active config.yaml's path (`HERMES_CONFIG_PATH` may put it outside `hermesHome`); the file tools never write it. */
  configPath?: string;
  /** What web_search / web_extract need; absent where they are not offered. */
  web?: WebToolContext;
  /** delegate_task's way to run child sessions; absent where children cannot run (Workers, tests without runs). */
  subagents?: SubagentSpawner;
  /**
   * The session's shell state, kept across turns: the directory `cd` left it in (the base for
   * relative paths of every file tool) and its background processes. Absent: the workspace.
   */
  terminalSession?: TerminalSessionState;
  /**
   * Asks the user before a write-capable tool of a `trust: untrusted` MCP server runs. Resolves
   * to null when it may run, or to the refusal to return to the model.
   */
  mcpTrustGate?(request: { server: string; tool: string; toolName: string; args: Record<string, unknown> }): Promise<string | null>;
  /** Asks before write_file/patch edit a file outside the workspace or a protected one; absent: never asks. */
  fileEdits?: FileEditGate;
}

export interface WebToolContext {
  config: WebConfig;
  /** Test seam: base URLs of scripted servers in place of the hosted APIs (see backends.ts). */
  endpoints?: Partial<Record<HostedBackend, string>>;
  /** Resolves host names so web_extract judges the addresses a name points to (Node: dns). */
  lookup?: (hostname: string) => Promise<string[]>;
}

export interface TerminalSessionState {
  cwd(): string;
  setCwd(dir: string): void;
  /** This session's background processes (absent where the host cannot spawn). */
  processes?: SessionProcesses;
}

export interface Tool {
  spec: ToolSpec;
  /** Interactive tools (clarify) run alone, never alongside others. */
  interactive?: boolean;
  /**
   * An MCP server's tool: the raw server name, and whether that server opted into parallel calls
   * (`supports_parallel_tool_calls`; Hermes runs other MCP tools one at a time).
   */
  mcp?: { server: string; parallelSafe: boolean };
  /** Returns the text given back to the model (often JSON). Errors are returned, not thrown. */
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<string>;
}
