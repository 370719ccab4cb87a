/**
 * What browser-turn prefill (src/agent/prefill.ts) needs from the machine: a file's text and a
 * script's output. Node: src/adapters/platform/node-prefill.ts; Workers have none (no prefill).
 */
export interface PrefillIo {
  /** The file's text; null when it does not exist. Throws when it cannot be read. */
  readText(path: string): Promise<string | null>;
  /**
   * Runs `argv` (no shell) and resolves with its standard output once it exits 0. Never throws:
   * a timeout (the process and its group are killed), a non-zero exit, output past
   * `maxOutputBytes` (reading stops there) or a failed start is `{ ok: false, error }`.
   */
  runScript(argv: string[], limits: { timeoutMs: number; maxOutputBytes: number }): Promise<PrefillScriptResult>;
}

export type PrefillScriptResult = { ok: true; stdout: string } | { ok: false; error: string };
