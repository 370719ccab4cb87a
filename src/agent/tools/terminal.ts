import { clamp, errorMessage, int, json, str } from './args.js';
import { resolveToolPath } from './paths.js';
import type { Tool } from './types.js';

/** Hermes enforces a ceiling on foreground commands; longer work belongs in the background. */
export const MAX_TERMINAL_TIMEOUT_SECONDS = 600;
const MAX_OUTPUT_CHARS = 50_000;

export interface TerminalOptions {
  /** From config (`terminal.timeout`); Hermes' default is 180. */
  defaultTimeoutSeconds: number;
}

export function terminalTool(options: TerminalOptions): Tool {
  const defaultTimeout = clamp(Math.trunc(options.defaultTimeoutSeconds) || 180, 1, MAX_TERMINAL_TIMEOUT_SECONDS);
  return {
    spec: {
      name: 'terminal',
      description:
        'Run a shell command (bash) on the machine and return its combined stdout/stderr and exit code. ' +
        "The working directory defaults to the session's workspace; files persist between calls. " +
        'Standard input is not connected: commands that wait for input fail, so pass flags such as -y. ' +
        `Output over ${MAX_OUTPUT_CHARS.toLocaleString('en-US')} characters keeps its head and tail. ` +
        'Use read_file / write_file / patch / search_files for files instead of cat, sed or grep.',
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', description: 'The command to execute' },
          timeout: {
            type: 'integer',
            description: `Max seconds to wait before the command is killed (default: ${defaultTimeout}, max: ${MAX_TERMINAL_TIMEOUT_SECONDS})`,
            default: defaultTimeout,
            minimum: 1,
            maximum: MAX_TERMINAL_TIMEOUT_SECONDS,
          },
          workdir: {
            type: 'string',
            description: 'Working directory: absolute, ~/path, or relative to the workspace (default: the workspace)',
          },
        },
        required: ['command'],
      },
    },
    async run(args, ctx) {
      const command = str(args.command);
      if (!command?.trim()) return json({ output: '', exit_code: -1, error: 'command is required' });
      const timeout = clamp(int(args.timeout, defaultTimeout), 1, MAX_TERMINAL_TIMEOUT_SECONDS);
      const workdir = str(args.workdir);
      const cwd = workdir?.trim() ? resolveToolPath(workdir, ctx.workspace, ctx.host.homeDir) : ctx.workspace;
      const dir = await ctx.host.stat(cwd).catch(() => null);
      if (!dir?.isDir) return json({ output: '', exit_code: -1, error: `workdir is not a directory: ${cwd}` });

      // The approval gate decides before anything runs; a refusal goes back to the model verbatim.
      const blocked = await ctx.checkCommand(command);
      if (typeof blocked === 'string') return blocked;

      try {
        const r = await ctx.host.exec({ command, cwd, timeoutMs: timeout * 1000, signal: ctx.signal, maxOutputChars: MAX_OUTPUT_CHARS });
        // Conventional codes for a killed command, so the model never sees a null exit code.
        if (r.timedOut) return json({ output: r.output, exit_code: 124, error: `Command timed out after ${timeout} s` });
        if (ctx.signal.aborted) return json({ output: r.output, exit_code: 130, error: 'Command was interrupted' });
        return json({ output: r.output, exit_code: r.exitCode ?? -1 });
      } catch (err) {
        return json({ output: '', exit_code: -1, error: `Failed to run command: ${errorMessage(err)}` });
      }
    },
  };
}
