import type { InteractionHub } from '../../runs/interactions.js';
import type { AgentConfig } from '../config.js';
import type { EmitEvent } from '../runtime.js';
import { fileEditDescription } from '../tools/file-edit-policy.js';
import type { FileEditGate, FileEditRequest } from '../tools/types.js';

export interface FileEditApprovalDeps {
  config: AgentConfig;
  hub: InteractionHub;
  sessionId: string;
  streamId: string;
  signal: AbortSignal;
  event: EmitEvent;
  /** Set where nobody watches the card: decided at once, by the same keys as a flagged command. */
  unattended?: 'subagent' | 'cron';
}

/** "Allow for session" grants edits of that one file for the rest of the session. */
const grantKey = (abs: string) => `file-edit:${abs}`;

/**
 * write_file's and patch's gate (the policy of which edits ask is file-edit-policy.ts): the
 * approval card with the diff, through the same hub as a command's. Deny and timeout leave the
 * file alone; yolo and `approvals.mode: off` ask nothing.
 */
export function fileEditGate(d: FileEditApprovalDeps): FileEditGate {
  const { config, hub, sessionId: sid } = d;
  return {
    mode: () => (hub.isYolo(sid) || config.approvals.mode === 'off' ? 'never' : config.approvals.fileEdits),
    async ask(request: FileEditRequest) {
      const key = grantKey(request.abs);
      if (hub.sessionApproved(sid).has(key)) return null;
      const description = fileEditDescription(request.reason, request.path);
      const command = `${request.tool} ${request.path}`;
      if (d.unattended) return unattendedEdit(d.unattended, config, request.path, description);
      const { pending, answer } = hub.requestApproval(
        sid,
        d.streamId,
        { command, description, pattern_key: key, pattern_keys: [key], tool: request.tool, diff: request.diff, path: request.path },
        config.approvals.timeoutSeconds * 1000,
        d.signal,
        ['once', 'session', 'deny'],
      );
      d.event('approval', { ...pending, pending_count: hub.pendingApproval(sid).pending_count });
      const choice = await answer;
      if (choice === 'timeout') {
        return `BLOCKED: the approval request timed out without an answer from the user (${description}), so ${request.path} was not changed. Silence is not consent: do not retry it or work around it; tell the user the edit is waiting for their approval.`;
      }
      if (choice === 'deny') {
        return `BLOCKED: the user denied this edit (${description}); ${request.path} was not changed. Do not retry it or work around the denial (no terminal writes either); explain what you wanted to change and ask the user how to proceed.`;
      }
      return null;
    },
  };
}

/**
 * A subagent follows `delegation.subagent_auto_approve`, a scheduled run `approvals.cron_mode`
 * (both deny by default), exactly as for a flagged command.
 */
function unattendedEdit(kind: 'subagent' | 'cron', config: AgentConfig, path: string, description: string): string | null {
  if (kind === 'subagent') {
    if (config.delegation.subagentAutoApprove) return null;
    return `BLOCKED: subagents cannot ask for approval, and this edit needs it (${description}); ${path} was not changed. Set delegation.subagent_auto_approve: true in config.yaml to let subagents make such edits.`;
  }
  if (config.approvals.cronMode === 'approve') return null;
  return `BLOCKED: this edit needs approval (${description}), and a scheduled task runs with nobody present to approve it; ${path} was not changed. Do not retry it. To let scheduled tasks make such edits, set approvals.cron_mode: approve in config.yaml.`;
}
