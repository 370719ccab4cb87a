import { describe, expect, it } from 'vitest';
import { SwitchingRuntime } from '../../src/agent/switching-runtime.js';
import type { AgentRuntime, CompressOutput } from '../../src/agent/runtime.js';
import type { BackendChoice } from '../../src/agent/backend-choice.js';
import type { Session } from '../../src/shared/session.js';

const output: CompressOutput = { patch: { compression_anchor_visible_idx: 2 }, summarised: 2, summary: 's', tokens: { input: 1, output: 1, cost: null } };
const runtime = (kind: string, compress?: AgentRuntime['compress']): AgentRuntime => ({
  kind,
  check: async () => {},
  startTurn: () => (async function* () {})(),
  ...(compress ? { compress } : {}),
});

/** The switch follows the current backend choice: the builtin agent compresses, the gateway refuses with a 400. */
describe('SwitchingRuntime.compress', () => {
  it('hands compression to the builtin agent and refuses it for the gateway', async () => {
    let choice: BackendChoice = { backend: 'builtin', gatewayBaseUrl: 'http://127.0.0.1:1' };
    const sw = new SwitchingRuntime(
      runtime('builtin', async () => output),
      () => runtime('gateway'),
      async () => choice,
    );
    const input = { session: { session_id: 's', messages: [] } as unknown as Session, focusTopic: null, signal: new AbortController().signal };
    expect(await sw.canCompress()).toBe(true);
    expect(await sw.compress(input)).toBe(output);
    choice = { ...choice, backend: 'gateway' };
    expect(await sw.canCompress()).toBe(false);
    await expect(sw.compress(input)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/built-in agent/) });
  });
});
