import { describe, expect, it } from 'vitest';
import { askMcpTrust } from '../../../src/agent/mcp/approval.js';
import { InteractionHub } from '../../../src/runs/interactions.js';

const request = { server: 'careful', tool: 'write_note', toolName: 'mcp__careful__write_note', args: { note: 'n' } };

function gate(hub: InteractionHub, timeoutMs: number) {
  const events: string[] = [];
  const deps = { hub, sessionId: 's1', streamId: 'st1', timeoutMs, signal: new AbortController().signal, emit: (name: string) => void events.push(name) };
  return { deps, events };
}

describe('the MCP trust gate', () => {
  it('a card nobody answers in time refuses the call', async () => {
    const hub = new InteractionHub(() => Date.now());
    const { deps, events } = gate(hub, 30);
    const refusal = await askMcpTrust(deps as never, request);
    expect(events).toEqual(['approval']);
    expect(refusal).not.toBeNull();
    expect(JSON.parse(refusal!).error).toMatch(/did not approve running write-capable MCP tool 'write_note'/);
  });

  it('an answered "once" lets it run', async () => {
    const hub = new InteractionHub(() => Date.now());
    const { deps } = gate(hub, 10_000);
    const pending = askMcpTrust(deps as never, request);
    const waiting = hub.pendingApproval('s1');
    expect(waiting.pending).toBeTruthy();
    hub.respondApproval('s1', 'once', waiting.pending!.approval_id);
    expect(await pending).toBeNull();
  });
});
