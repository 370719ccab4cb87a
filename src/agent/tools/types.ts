import type { RunEventName, RunEventPayloads } from '../../shared/run-events.js';
import type { ToolSpec } from '../messages.js';

export interface ExecRequest {
  command: string;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Output past this many characters is cut, keeping head and tail, with a marker between. */
  maxOutputChars: number;
}

export interface ExecResult {
  output: string;
  exitCode: number | null;
  timedOut: boolean;
  truncated: boolean;
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
}

export interface ApprovalRequest {
  command: string;
  description: string;
  pattern_key: string;
  pattern_keys: string[];
  tool: string;
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
  /**
   * Asks the user before a write-capable tool of a `trust: untrusted` MCP server runs. Resolves
   * to null when it may run, or to the refusal to return to the model.
   */
  mcpTrustGate?(request: { server: string; tool: string; toolName: string; args: Record<string, unknown> }): Promise<string | null>;
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
