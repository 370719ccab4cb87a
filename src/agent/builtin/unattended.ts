import type { AgentConfig } from '../config.js';

/**
 * A scheduled (cron) run has nobody to ask: a flagged command is decided at once by config.yaml
 * `approvals.cron_mode` (Hermes' default: deny), and the model is told why and what to do instead.
 */
export function cronCommandDecision(config: AgentConfig): (command: string, description: string) => string | null {
  return (_command, description) =>
    config.approvals.cronMode === 'approve'
      ? null
      : `BLOCKED: this command was flagged as dangerous (${description}), and a scheduled task runs with nobody present to approve it. ` +
        'Do not retry it; find another way that avoids it. To let scheduled tasks run flagged commands, set approvals.cron_mode: approve in config.yaml.';
}

/** An untrusted MCP tool in a scheduled run: nobody can trust it now, so it does not run. */
export function cronMcpRefusal(server: string, tool: string): string {
  return `BLOCKED: the MCP tool '${tool}' on the untrusted server '${server}' needs a person's approval, and a scheduled task runs with nobody present. Do not retry it.`;
}
