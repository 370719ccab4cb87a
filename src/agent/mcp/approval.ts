import type { InteractionHub } from '../../runs/interactions.js';
import type { EmitEvent } from '../runtime.js';

export interface TrustGateDeps {
  hub: InteractionHub;
  sessionId: string;
  streamId: string;
  timeoutMs: number;
  signal: AbortSignal;
  emit: EmitEvent;
}

/**
 * Hermes' trust tier: on a `trust: untrusted` server every call of a tool not marked read-only
 * waits for the user (the approval card). "Session"/"always" approve that tool for the session
 * only (nothing is written to command_allowlist); yolo lets it run.
 */
export async function askMcpTrust(
  deps: TrustGateDeps,
  request: { server: string; tool: string; toolName: string; args: Record<string, unknown> },
): Promise<string | null> {
  const key = `mcp-trust/${request.server}/${request.tool}`;
  if (deps.hub.isYolo(deps.sessionId) || deps.hub.sessionApproved(deps.sessionId).has(key)) return null;
  const argsText = JSON.stringify(request.args);
  const { pending, answer } = deps.hub.requestApproval(
    deps.sessionId,
    deps.streamId,
    {
      command: `${request.toolName} ${argsText.length > 500 ? `${argsText.slice(0, 500)}…` : argsText}`,
      description: `MCP tool '${request.tool}' on UNTRUSTED server '${request.server}' wants to run. This tool is write-capable (no readOnlyHint=true annotation) and may modify external state.`,
      pattern_key: key,
      pattern_keys: [key],
      tool: request.toolName,
    },
    deps.timeoutMs,
    deps.signal,
  );
  deps.emit('approval', { ...pending, pending_count: deps.hub.pendingApproval(deps.sessionId).pending_count });
  const choice = await answer;
  // Silence is not consent: a card nobody answered in time refuses as a denial does.
  if (choice !== 'deny' && choice !== 'timeout') return null;
  return JSON.stringify({
    error: `The user did not approve running write-capable MCP tool '${request.tool}' on untrusted server '${request.server}'. The command was NOT run. Do not retry without explicit user direction.`,
  });
}
