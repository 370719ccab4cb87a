import type { InteractionHub } from '../../runs/interactions.js';
import { SMART_UNAVAILABLE, blockedByUser, decideCommand, timedOut } from '../approvals/gate.js';
import type { AgentConfig } from '../config.js';
import type { EmitEvent } from '../runtime.js';

export interface CommandApprovalDeps {
  config: AgentConfig;
  hub: InteractionHub;
  sessionId: string;
  streamId: string;
  signal: AbortSignal;
  event: EmitEvent;
  hermesHome: string;
  /** Writes `command_allowlist` (an "always" answer). */
  addToAllowlist: (keys: string[]) => Promise<unknown>;
  /** Sessions already told that smart approval asks as manual does (said once per session). */
  smartNoted: Set<string>;
  /** Set where nobody watches the prompt (a subagent): decides instead of asking (null: run). */
  unattended?: (command: string, description: string) => string | null;
}

/**
 * The terminal tool's gate: null to run the command, else what the model is told instead
 * (hardline or deny-rule block, the user's denial, or a timeout — never taken as consent).
 */
export async function checkShellCommand(d: CommandApprovalDeps, command: string): Promise<string | null> {
  const { config, hub, sessionId: sid } = d;
  const decision = decideCommand(command, {
    mode: config.approvals.mode,
    deny: config.approvals.deny,
    allowlist: config.commandAllowlist,
    sessionApproved: hub.sessionApproved(sid),
    yolo: hub.isYolo(sid),
    sudoPassword: Object.hasOwn(config.env, 'SUDO_PASSWORD'),
    hermesHome: d.hermesHome,
  });
  if (decision.action === 'run') return null;
  if (decision.action === 'block') return decision.reason;
  if (d.unattended) return d.unattended(command, decision.request.description);
  if (config.approvals.mode === 'smart' && !d.smartNoted.has(sid)) {
    d.smartNoted.add(sid);
    d.event('warning', { type: 'smart_approval_unavailable', message: SMART_UNAVAILABLE });
  }
  const { pending, answer } = hub.requestApproval(sid, d.streamId, { ...decision.request, tool: 'terminal' }, config.approvals.timeoutSeconds * 1000, d.signal);
  d.event('approval', { ...pending, pending_count: hub.pendingApproval(sid).pending_count });
  const choice = await answer;
  if (choice === 'timeout') return timedOut(command, decision.request.description);
  if (choice === 'deny') return blockedByUser(command, decision.request.description);
  if (choice === 'always') {
    try {
      await d.addToAllowlist(decision.request.pattern_keys);
    } catch (err) {
      d.event('warning', { type: 'config_write_failed', message: `Approved, but config.yaml could not be updated: ${(err as Error).message}` });
    }
  }
  return null;
}
