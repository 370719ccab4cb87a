import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';

/** The file-edit approval through the real app: config.yaml in, the card's data over HTTP and SSE. */
describe('chat: a file edit outside the workspace waits with its diff', () => {
  let t: ChatHarness;
  afterEach(async () => t.close());

  it('pending carries the diff; deny leaves the file untouched and the turn goes on', async () => {
    t = await makeChatApp();
    const sid = await t.newSession();
    const target = join(dirname(t.workspace), 'outside.txt');
    await writeFile(target, 'before\n');
    t.model.enqueue([{ toolCall: { id: 'w1', name: 'write_file', args: { path: target, content: 'after\n' } } }], [{ text: 'understood' }]);
    const { stream_id } = (await t.start(sid, 'overwrite it')).body;
    let pending: any;
    const frames = await t.stream(stream_id, {
      onFrame: async (f) => {
        if (f.event !== 'approval') return;
        pending = (await t.call('GET', `/api/approval/pending?session_id=${sid}`)).body;
        const r = await t.call('POST', '/api/approval/respond', { session_id: sid, choice: 'deny', approval_id: f.data.approval_id });
        expect(r.status).toBe(200);
      },
    });
    const approval = frames.find((f) => f.event === 'approval')!.data;
    expect(approval).toMatchObject({
      tool: 'write_file',
      path: target,
      description: `Edit outside the workspace: ${target}`,
      choices: ['once', 'session', 'deny'],
    });
    expect(approval.diff).toContain('-before\n+after\n');
    expect(pending.pending_count).toBe(1);
    expect(pending.pending).toMatchObject({ approval_id: approval.approval_id, diff: approval.diff, path: target });
    expect(await readFile(target, 'utf8')).toBe('before\n');
    const result = t
      .turnRequests()
      .at(-1)
      .messages.findLast((m: any) => m.role === 'tool' && m.tool_call_id === 'w1').content;
    expect(JSON.parse(result).error).toMatch(/^BLOCKED: the user denied this edit/);
    expect(frames.some((f) => f.event === 'done')).toBe(true);
    expect(frames.some((f) => f.event === 'token' && f.data.text.includes('understood'))).toBe(true);
  });

  it('Allow once writes exactly what was shown; inside the workspace nothing asks by default', async () => {
    t = await makeChatApp();
    const sid = await t.newSession();
    const target = join(dirname(t.workspace), 'made.txt');
    t.model.enqueue(
      [
        { toolCall: { id: 'w1', name: 'write_file', args: { path: target, content: 'new\n' } } },
        { toolCall: { id: 'w2', name: 'write_file', args: { path: 'inside.txt', content: 'in\n' } } },
      ],
      [{ text: 'done' }],
    );
    const { stream_id } = (await t.start(sid, 'make them')).body;
    const frames = await t.stream(stream_id, {
      onFrame: async (f) => {
        if (f.event === 'approval') await t.call('POST', '/api/approval/respond', { session_id: sid, choice: 'once', approval_id: f.data.approval_id });
      },
    });
    expect(frames.filter((f) => f.event === 'approval').map((f) => f.data.path)).toEqual([target]);
    expect(await readFile(target, 'utf8')).toBe('new\n');
    expect(existsSync(join(t.workspace, 'inside.txt'))).toBe(true);
  });
});
