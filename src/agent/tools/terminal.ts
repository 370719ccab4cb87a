import { stripAnsi } from './ansi.js';
import { bool, clamp, errorMessage, int, json, str } from './args.js';
import { DEFAULT_MAX_OUTPUT_CHARS } from './output-window.js';
import { resolveToolPath, toolBaseDir } from './paths.js';
import { redactTerminalOutput } from './terminal-redact.js';
import { exitCodeMeaning, foregroundGuidance, workdirError } from './terminal-rules.js';
import type { Tool, ToolContext } from './types.js';

/** Hermes enforces a ceiling on foreground commands; longer work belongs in the background. */
export const MAX_TERMINAL_TIMEOUT_SECONDS = 600;

export interface TerminalOptions {
  /** From config (`terminal.timeout`); Hermes' default is 180. */
  defaultTimeoutSeconds: number;
  /** From config (`tool_output.max_bytes`); Hermes' default is 50,000 characters. */
  maxOutputChars?: number;
  /** `security.redact_secrets` (default true). */
  redactSecrets?: boolean | undefined;
}

const SILENT_HINT =
  'This process runs silently: nothing reports when it exits. For a bounded task (tests, a build), ' +
  "call process(action='wait') or process(action='poll') to learn the outcome; ignore this for servers and watchers.";
const NOTIFY_UNSUPPORTED =
  'notify_on_complete is not available in this session: the web UI cannot start a new turn when a process ends. ' +
  "The process is running in the background; retrieve its result with process(action='poll') or process(action='wait').";

export function terminalTool(options: TerminalOptions): Tool {
  const defaultTimeout = Math.max(1, Math.trunc(options.defaultTimeoutSeconds) || 180);
  const maxOutput = options.maxOutputChars && options.maxOutputChars > 0 ? Math.trunc(options.maxOutputChars) : DEFAULT_MAX_OUTPUT_CHARS;
  return {
    spec: {
      name: 'terminal',
      description:
        'Execute shell commands (bash) on this machine. The filesystem and the current working directory persist between calls: ' +
        "a `cd` holds for the next command, and relative paths of the file tools resolve against it. Starts in the session's workspace. " +
        'Standard input is not connected in the foreground: pass flags such as -y. ' +
        'Use read_file / write_file / patch / search_files for files instead of cat, sed or grep.\n\n' +
        `Foreground (default): returns as soon as the command ends; timeout up to ${MAX_TERMINAL_TIMEOUT_SECONDS} s. ` +
        'Background: set background=true for servers, watchers and long jobs; you get a session_id to use with the process tool ' +
        "(poll, log, wait, kill, write, submit, close, list). Do not use '&', nohup or setsid in the foreground.",
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', description: 'The command to execute' },
          background: { type: 'boolean', description: 'Run the command in the background and return its session_id at once', default: false },
          timeout: {
            type: 'integer',
            description: `Max seconds to wait (default: ${defaultTimeout}, foreground max: ${MAX_TERMINAL_TIMEOUT_SECONDS}). Returns as soon as the command finishes; above ${MAX_TERMINAL_TIMEOUT_SECONDS} s is rejected, use background=true`,
            default: defaultTimeout,
            minimum: 1,
          },
          workdir: { type: 'string', description: 'Working directory for this command only (default: the session working directory)' },
          notify_on_complete: { type: 'boolean', description: 'Not available in the web UI: poll or wait instead', default: false },
        },
        required: ['command'],
      },
    },
    async run(args, ctx) {
      if (args.command !== undefined && typeof args.command !== 'string') {
        return json({
          output: '',
          exit_code: -1,
          error: `Invalid command: expected string, got ${Array.isArray(args.command) ? 'list' : typeof args.command}`,
          status: 'error',
        });
      }
      const command = str(args.command);
      if (!command?.trim()) return json({ output: '', exit_code: -1, error: 'command is required' });
      const background = bool(args.background, false);
      const asked = args.timeout === undefined || args.timeout === null ? null : int(args.timeout, defaultTimeout);
      if (!background && asked !== null && asked > MAX_TERMINAL_TIMEOUT_SECONDS) {
        return json({
          error: `Foreground timeout ${asked}s exceeds the maximum of ${MAX_TERMINAL_TIMEOUT_SECONDS}s. Use background=true with notify_on_complete=true for long-running commands.`,
        });
      }
      if (!background) {
        const guidance = foregroundGuidance(command);
        if (guidance) return json({ output: '', exit_code: -1, error: guidance, status: 'error' });
      }
      const timeout = clamp(asked ?? defaultTimeout, 1, MAX_TERMINAL_TIMEOUT_SECONDS);

      // The approval gate decides before anything runs; a refusal goes back to the model verbatim.
      const blocked = await ctx.checkCommand(command);
      if (typeof blocked === 'string') return blocked;

      const workdir = str(args.workdir)?.trim();
      if (workdir) {
        const bad = workdirError(workdir);
        if (bad) return json({ output: '', exit_code: -1, error: bad, status: 'blocked' });
      }
      const cwd = await commandCwd(workdir, ctx);
      if (typeof cwd !== 'string') return cwd.error;

      if (background) return startBackground(command, cwd, bool(args.notify_on_complete, false), ctx);

      try {
        const r = await ctx.host.exec({ command, cwd, timeoutMs: timeout * 1000, signal: ctx.signal, maxOutputChars: maxOutput, trackCwd: !workdir });
        if (r.cwd && !workdir) ctx.terminalSession?.setCwd(r.cwd);
        const output = cleanOutput(r.output, command, ctx, options.redactSecrets !== false);
        // Conventional codes for a killed command, so the model never sees a null exit code.
        if (r.timedOut) return json({ output, exit_code: 124, error: `Command timed out after ${timeout} seconds` });
        if (ctx.signal.aborted) return json({ output, exit_code: 130, error: 'Command was interrupted' });
        const exitCode = r.exitCode ?? -1;
        const meaning = exitCodeMeaning(command, exitCode);
        return json({ output, exit_code: exitCode, error: null, ...(meaning ? { exit_code_meaning: meaning } : {}) });
      } catch (err) {
        return json({ output: '', exit_code: -1, error: `Failed to run command: ${errorMessage(err)}` });
      }
    },
  };
}

/** Hermes' order: the capture is already cut to the budget; then escapes go, then secrets. */
export function cleanOutput(output: string, command: string, ctx: Pick<ToolContext, 'hermesHome'>, redact = true): string {
  if (!output) return '';
  const text = stripAnsi(output).trim();
  return redact ? redactTerminalOutput(text, command, ctx.hermesHome) : text;
}

/** The directory to run in: `workdir` (against the session's cwd), else the session's cwd. */
async function commandCwd(workdir: string | undefined, ctx: ToolContext): Promise<string | { error: string }> {
  const base = toolBaseDir(ctx);
  if (workdir) {
    const cwd = resolveToolPath(workdir, base, ctx.host.homeDir);
    const dir = await ctx.host.stat(cwd).catch(() => null);
    return dir?.isDir ? cwd : { error: json({ output: '', exit_code: -1, error: `workdir is not a directory: ${cwd}` }) };
  }
  if (base === ctx.workspace) return base;
  // The directory a `cd` left may have been removed since: start over in the workspace.
  const dir = await ctx.host.stat(base).catch(() => null);
  if (dir?.isDir) return base;
  ctx.terminalSession?.setCwd(ctx.workspace);
  return ctx.workspace;
}

function startBackground(command: string, cwd: string, notify: boolean, ctx: ToolContext): string {
  const processes = ctx.terminalSession?.processes;
  if (!processes || !ctx.host.spawn) {
    return json({ output: '', exit_code: -1, error: 'Failed to start background process: not available on this runtime' });
  }
  try {
    const proc = processes.start(command, cwd);
    return json({
      output: 'Background process started',
      session_id: proc.id,
      pid: proc.pid,
      exit_code: 0,
      error: null,
      ...(notify ? { notify_on_complete: false, notify_unsupported: NOTIFY_UNSUPPORTED } : { hint: SILENT_HINT }),
    });
  } catch (err) {
    return json({ output: '', exit_code: -1, error: `Failed to start background process: ${errorMessage(err)}` });
  }
}
