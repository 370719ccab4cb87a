import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

/** The newest tool result the model received for `callId`. */
function toolResult(req: any, callId: string): any {
  const content: string = req.messages.findLast((m: any) => m.role === 'tool' && m.tool_call_id === callId)?.content ?? 'null';
  return content.startsWith('{') ? JSON.parse(content) : content;
}

describe('chat: the terminal session across turns', () => {
  let t: ChatHarness;
  beforeEach(async () => {
    t = await makeChatApp();
  });
  afterEach(async () => t.close());

  it('keeps the cwd of a `cd` for the next turn, for terminal and read_file alike', async () => {
    const sid = await t.newSession();
    await mkdir(join(t.workspace, 'sub'));
    await writeFile(join(t.workspace, 'sub', 'x.txt'), 'in sub\n');
    t.model.enqueue([{ toolCall: { id: 'c1', name: 'terminal', args: { command: 'cd sub' } } }], [{ text: 'Moved.' }]);
    await t.stream((await t.start(sid, 'go to sub')).body.stream_id);
    t.model.enqueue(
      [{ toolCall: { id: 'c2', name: 'terminal', args: { command: 'pwd' } } }, { toolCall: { id: 'c3', name: 'read_file', args: { path: 'x.txt' } } }],
      [{ text: 'Done.' }],
    );
    await t.stream((await t.start(sid, 'where are you')).body.stream_id);
    const req = t.turnRequests().at(-1);
    expect(toolResult(req, 'c2').output).toBe(join(t.workspace, 'sub'));
    expect(JSON.stringify(toolResult(req, 'c3'))).toContain('in sub');
  });

  it('a background process outlives its turn, is listed for the session, and dies with the session', async () => {
    const sid = await t.newSession();
    t.model.enqueue(
      [{ toolCall: { id: 'bg', name: 'terminal', args: { command: 'echo $$ > bg.pid; while true; do echo beat; sleep 0.2; done', background: true } } }],
      [{ text: 'Started.' }],
    );
    const frames = await t.stream((await t.start(sid, 'start a loop')).body.stream_id);
    const complete = frames.find((f) => f.event === 'tool_complete' && f.data.tool_call_id === 'bg')!;
    const started = JSON.parse(complete.data.result);
    expect(started.session_id).toMatch(/^proc_[0-9a-f]{12}$/);
    await until(() => alive(started.pid));

    // The next turn polls it: the process kept running between turns.
    t.model.enqueue([{ toolCall: { id: 'p', name: 'process', args: { action: 'poll', session_id: started.session_id } } }], [{ text: 'Still going.' }]);
    await t.stream((await t.start(sid, 'check it')).body.stream_id);
    expect(toolResult(t.turnRequests().at(-1), 'p')).toMatchObject({ status: 'running', pid: started.pid });

    const listed = await t.call('GET', `/api/session/processes?session_id=${sid}`);
    expect(listed.status).toBe(200);
    expect(listed.body.processes).toHaveLength(1);
    expect(listed.body.processes[0]).toMatchObject({ session_id: started.session_id, status: 'running', pid: started.pid, cwd: t.workspace });
    expect(listed.body.processes[0].output_preview).toContain('beat');

    const shellPid = Number(await readFile(join(t.workspace, 'bg.pid'), 'utf8'));
    expect((await t.call('POST', '/api/session/delete', { session_id: sid })).status).toBe(200);
    expect(await until(() => !alive(started.pid) && !alive(shellPid))).toBe(true);
  });

  it('GET /api/session/processes validates its input', async () => {
    expect((await t.call('GET', '/api/session/processes')).status).toBe(400);
    const missing = await t.call('GET', '/api/session/processes?session_id=nope_123');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Session not found' });
    const sid = await t.newSession();
    expect((await t.call('GET', `/api/session/processes?session_id=${sid}`)).body).toEqual({ processes: [] });
  });
});
