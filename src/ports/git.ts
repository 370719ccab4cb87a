/** One git command: arguments (never a shell string), where, and how long it may take. */
export interface GitCommand {
  args: string[];
  /** Absolute directory the command runs in (a workspace, or a folder inside one). */
  cwd: string;
  /** Killed past this; `GitResult.timedOut` says so. Local commands 5 s, remote ones 60 s (the incumbent's). */
  timeoutMs: number;
  /** Written to stdin, then stdin is closed (e.g. a commit message with `-F -`). */
  input?: string | Uint8Array;
  /** Extra environment for this call (`GIT_INDEX_FILE` for a scratch index); added to the scrubbed one. */
  env?: Record<string, string>;
  /** Output past this many bytes is cut and `truncated` set (diffs are size-capped). Default 8 MB. */
  maxOutputBytes?: number;
  signal?: AbortSignal;
  /** Also hand back stdout's bytes as they are (`GitResult.bytes`): blob contents that may not be UTF-8. */
  bytes?: boolean;
}

export interface GitResult {
  /** Exit code; null when killed (timeout, abort). */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  /** stdout undecoded; only when the command asked for `bytes`. */
  bytes?: Uint8Array;
}

/**
 * Runs git for the workspace features (the git panel, a turn's change record). Node: the `git`
 * binary with a scrubbed environment (no GIT_DIR/GIT_WORK_TREE or config injected from the
 * server's environment, no credential or ssh prompts, `GIT_TERMINAL_PROMPT=0`, no pager).
 * Absent where there is no git (Workers): the git endpoints answer 501.
 */
export interface GitRunner {
  run(command: GitCommand): Promise<GitResult>;
  /** The `git` binary answers (`git --version`); cached by the adapter. */
  available(): Promise<boolean>;
}
