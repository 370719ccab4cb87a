/**
 * A pseudo-terminal running a shell: the embedded terminal panel's process (src/terminal).
 * The Node adapter (src/adapters/platform/node-pty-host.ts) uses node-pty, or `script` from
 * util-linux where node-pty cannot load; Workers have none (deps.terminals absent).
 */
export interface PtySpawnOptions {
  /** Absent: the user's shell ($SHELL, else /bin/bash, else /bin/sh). */
  shell?: string;
  cwd: string;
  rows: number;
  cols: number;
  /** Added to the host's environment (which already lacks provider keys and has TERM=xterm-256color). */
  env?: Record<string, string>;
}

export interface PtyProcess {
  readonly pid: number;
  /** Output as text (UTF-8 decoded across chunk boundaries). */
  onData(listener: (text: string) => void): void;
  /** Once, when the shell has exited: its code (null when killed by a signal) and the signal number. */
  onExit(listener: (exitCode: number | null, signal: number | null) => void): void;
  write(data: string): void;
  /** Best effort where the host cannot set the window size (the `script` fallback). */
  resize(rows: number, cols: number): void;
  /** Ends the shell and everything it started (its process group). */
  kill(): void;
}

export interface PtyHost {
  /** Which engine runs the shells: `node-pty`, or `script` (util-linux, resize best effort). */
  kind(): Promise<'node-pty' | 'script'>;
  spawn(options: PtySpawnOptions): Promise<PtyProcess>;
}
