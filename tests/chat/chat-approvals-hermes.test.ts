import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import type { Frame } from '../helpers/sse.js';

/** The newest tool result the model received for `callId` in a request. */
function toolResult(req: any, callId: string): string {
  return req.messages.findLast((m: any) => m.role === 'tool' && m.tool_call_id === callId)?.content;
}

/** Approvals as Hermes decides them, through the real app: config.yaml in, SSE and tool results out. */
describe('chat: approvals as Hermes decides them', () => {
  let t: ChatHarness;
  afterEach(async () => t.close());

  /** A turn whose model asks to run `command`, then answers "finished". */
  async function turn(sid: string, command: string, onApproval: (f: Frame) => Promise<void> = async () => {}) {
    t.model.enqueue([{ toolCall: { id: 'run1', name: 'terminal', args: { command } } }], [{ text: 'finished' }]);
    const { stream_id } = (await t.start(sid, `please run ${command}`)).body;
    const frames = await t.stream(stream_id, { onFrame: async (f) => (f.event === 'approval' ? onApproval(f) : undefined) });
    return { frames, result: toolResult(t.turnRequests().at(-1), 'run1') };
  }
  const answer = (sid: string, choice: string) => (f: Frame) =>
    t.call('POST', '/api/approval/respond', { session_id: sid, choice, approval_id: f.data.approval_id }).then(() => undefined);

  it('approvals.mode unset is smart: it asks as manual does and says so once per session', async () => {
    t = await makeChatApp();
    const sid = await t.newSession();
    const first = await turn(sid, 'rm -rf build', answer(sid, 'once'));
    const warnings = first.frames.filter((f) => f.event === 'warning');
    expect(warnings.map((f) => f.data.type)).toEqual(['smart_approval_unavailable']);
    expect(warnings[0]!.data.message).toMatch(/smart approval is not available.*manual/);
    const events = first.frames.map((f) => f.event);
    expect(events.indexOf('warning')).toBeLessThan(events.indexOf('approval'));
    expect(first.frames.find((f) => f.event === 'approval')!.data).toMatchObject({ pattern_key: 'recursive delete', pattern_keys: ['recursive delete'] });
    const second = await turn(sid, 'git push --force', answer(sid, 'deny'));
    expect(second.frames.some((f) => f.event === 'approval')).toBe(true);
    expect(second.frames.some((f) => f.event === 'warning')).toBe(false);
  });

  it('a timeout tells the model it timed out, not that the user denied', async () => {
    t = await makeChatApp({ extraYaml: 'approvals:\n  mode: manual\n  timeout: 1\n' });
    const sid = await t.newSession();
    await writeFile(join(t.workspace, 'keep.txt'), 'x');
    const { frames, result } = await turn(sid, 'rm -rf keep.txt');
    expect(result).toMatch(/^BLOCKED: the approval request timed out/);
    expect(result).not.toMatch(/denied/);
    expect(await readFile(join(t.workspace, 'keep.txt'), 'utf8')).toBe('x');
    expect(frames.some((f) => f.event === 'warning')).toBe(false); // manual: nothing to say
  });

  it("honours the CLI's keys and old keys, and an 'always' here writes Hermes' key and migrates the old ones", async () => {
    t = await makeChatApp({
      extraYaml: 'approvals:\n  mode: manual\ncommand_allowlist:\n  - recursive delete   # from the CLI\n  - docker_lifecycle\n',
    });
    const sid = await t.newSession();
    const cli = await turn(sid, 'rm -rf build');
    expect(cli.frames.some((f) => f.event === 'approval')).toBe(false);
    expect(JSON.parse(cli.result).exit_code).toBe(0);
    await turn(sid, 'git reset --hard', answer(sid, 'always'));
    const yaml = await readFile(join(t.hermesHome, 'config.yaml'), 'utf8');
    expect(yaml).toContain(
      [
        'command_allowlist:',
        '  - recursive delete   # from the CLI',
        '  - docker compose restart/stop/kill/down (container lifecycle)',
        '  - docker restart/stop/kill (container lifecycle)',
        '  - git reset --hard (destroys uncommitted changes)',
      ].join('\n'),
    );
    expect(yaml).not.toContain('docker_lifecycle');
    const again = await turn(await t.newSession(), 'git reset --hard');
    expect(again.frames.some((f) => f.event === 'approval')).toBe(false);
  });

  it('refuses sudo -S without SUDO_PASSWORD (even in yolo) and asks once it is configured', async () => {
    t = await makeChatApp({ extraYaml: 'approvals:\n  mode: off\n' });
    const sid = await t.newSession();
    const refused = await turn(sid, 'echo guess | sudo -S true');
    expect(refused.result).toMatch(/^BLOCKED: sudo password guessing via stdin \(sudo -S\)\..*SUDO_PASSWORD/);
    const hardline = await turn(sid, 'shutdown -h now');
    expect(hardline.result).toMatch(/^BLOCKED: system shutdown\/reboot\. /);
    await writeFile(join(t.hermesHome, '.env'), 'SUDO_PASSWORD=not-used\n');
    await writeFile(join(t.hermesHome, 'config.yaml'), (await readFile(join(t.hermesHome, 'config.yaml'), 'utf8')).replace('mode: off', 'mode: manual'));
    let asked: Frame | undefined;
    const withPassword = await turn(sid, 'sudo -S true', async (f) => {
      asked = f;
      await answer(sid, 'deny')(f);
    });
    expect(asked?.data.pattern_key).toBe('sudo with privilege flag (stdin/askpass/shell/list)');
    expect(withPassword.result).toMatch(/^BLOCKED: the user denied/);
  });
});
