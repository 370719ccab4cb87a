import { stripAnsi } from './ansi.js';
import { int, json, str, toolError } from './args.js';
import { redactTerminalOutput } from './terminal-redact.js';
import type { Tool, ToolContext } from './types.js';

export interface ProcessToolOptions {
  /** `terminal.timeout`: a wait is at most this long (Hermes clamps to it). */
  maxWaitSeconds: number;
  /** `security.redact_secrets` (default true). */
  redactSecrets?: boolean | undefined;
}

const ACTIONS = ['list', 'poll', 'log', 'wait', 'kill', 'write', 'submit', 'close'] as const;

/** Output reaches the model as foreground output does: escapes stripped, secrets masked. */
function cleaned<T extends Record<string, unknown>>(result: T, ctx: ToolContext, redact: boolean): T {
  const command = typeof result.command === 'string' ? result.command : '';
  const out: Record<string, unknown> = { ...result };
  for (const key of ['output', 'output_preview']) {
    const value = out[key];
    if (typeof value === 'string' && value) out[key] = redact ? redactTerminalOutput(stripAnsi(value), command, ctx.hermesHome) : stripAnsi(value);
  }
  // A command can carry an inline credential too (`curl -H "Authorization: …"`).
  if (command && redact) out.command = redactTerminalOutput(command, '', ctx.hermesHome);
  return out as T;
}

/** Hermes' `process` tool over the session's background processes. */
export function processTool(options: ProcessToolOptions): Tool {
  return {
    spec: {
      name: 'process',
      description:
        'Manage background processes started with terminal(background=true). ' +
        "Actions: 'list' (show all), 'poll' (check status + new output), 'log' (full output with pagination), " +
        "'wait' (block until done or timeout), 'kill' (terminate), 'write' (send raw stdin data without newline), " +
        "'submit' (send data + Enter, for answering prompts), 'close' (close stdin/send EOF).",
      parameters: {
        type: 'object',
        properties: {
          action: { type: 'string', enum: [...ACTIONS], description: 'Action to perform on background processes' },
          session_id: {
            type: 'string',
            description: "Process session ID (from terminal background output); a unique prefix works. Required for all actions except 'list'.",
          },
          data: { type: 'string', description: "Text to send to process stdin (for 'write' and 'submit' actions)" },
          timeout: { type: 'integer', description: "Max seconds to block for 'wait' action. Returns partial output on timeout.", minimum: 1 },
          offset: { type: 'integer', description: "Line offset for 'log' action (default: last 200 lines)" },
          limit: { type: 'integer', description: "Max lines to return for 'log' action", minimum: 1 },
        },
        required: ['action'],
      },
    },
    async run(args, ctx) {
      const redact = options.redactSecrets !== false;
      const processes = ctx.terminalSession?.processes;
      if (!processes) return toolError('Background processes are not available on this runtime');
      const action = str(args.action) ?? '';
      const id = args.session_id === undefined || args.session_id === null ? '' : String(args.session_id);
      if (action === 'list') return json({ processes: processes.list().map((p) => cleaned(p as unknown as Record<string, unknown>, ctx, redact)) });
      if (!(ACTIONS as readonly string[]).includes(action)) {
        return toolError(`Unknown process action: ${action}. Use: ${ACTIONS.join(', ')}`);
      }
      if (!id) return toolError(`session_id is required for ${action}`);
      for (const field of ['offset', 'limit', 'timeout'] as const) {
        const v = args[field];
        if (v !== undefined && v !== null && int(v, Number.NaN) !== int(v, 0))
          return toolError(`${field} must be an integer, got ${typeof v}: ${JSON.stringify(v)}`);
      }
      switch (action) {
        case 'poll':
          return json(cleaned(processes.poll(id), ctx, redact));
        case 'log': {
          const offset = args.offset === undefined || args.offset === null ? null : int(args.offset, 0);
          return json(cleaned(processes.log(id, offset, int(args.limit, 200)), ctx, redact));
        }
        case 'wait': {
          const timeout = args.timeout === undefined || args.timeout === null ? null : int(args.timeout, 0);
          return json(cleaned(await processes.wait(id, timeout, options.maxWaitSeconds, ctx.signal), ctx, redact));
        }
        case 'kill':
          return json(cleaned(await processes.kill(id), ctx, redact));
        case 'write':
          return json(processes.write(id, String(args.data ?? '')));
        case 'submit':
          return json(processes.write(id, `${String(args.data ?? '')}\n`));
        default:
          return json(processes.closeStdin(id));
      }
    },
  };
}
