import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTitleRequest, makeChatApp, type ChatHarness } from '../helpers/chat.js';
import type { Frame } from '../helpers/sse.js';
import { DB, JWT, KEY, PEM, PEM_BODY, SHORT_KEY, allPresent, leaked } from '../helpers/secrets.js';

const FILE_CONTENT = `${PEM}\nDATABASE=${DB}\nSESSION=${JWT}\n`;

/** A turn that writes secrets to a file, reads them back, and answers with the key. */
function enqueueSecretTurn(t: ChatHarness) {
  t.model.enqueue(
    [{ text: 'Writing the file.' }, { toolCall: { id: 'w1', name: 'write_file', args: { path: 'secrets.txt', content: FILE_CONTENT } } }],
    [{ reasoning: `Checking ${JWT}` }, { toolCall: { id: 'r1', name: 'read_file', args: { path: 'secrets.txt' } } }],
    [{ text: `Done; your key ${KEY} is in place.` }],
  );
}

/** Frames a browser is shown as they are: everything but the streaming deltas. */
const presented = (frames: Frame[]) => frames.filter((f) => f.event !== 'token' && f.event !== 'reasoning');

describe('chat: redaction of what the stream shows', () => {
  let t: ChatHarness;
  beforeEach(async () => {
    t = await makeChatApp({ storage: 'fs', keepFinishedMs: 0 });
  });
  afterEach(async () => t.close());

  it('masks done, tool and tool_complete events; the agent, the workspace and the disk keep the originals', async () => {
    const sid = await t.newSession();
    enqueueSecretTurn(t);
    const start = await t.start(sid, `use ${SHORT_KEY} now`);
    expect(start.status).toBe(200);
    expect(start.body.title).toBe('use sk-*** now');
    const frames = await t.stream(start.body.stream_id);
    expect(frames.at(-1)!.event).toBe('stream_end');

    const tool = (event: string, id: string) => frames.find((f) => f.event === event && f.data.tool_call_id === id)!.data;
    // The write's arguments (a preview cut at 120 characters: the PEM block is cut off, and masked to its end).
    expect(tool('tool', 'w1').args.content).toBe('-----BEGIN RSA PRIVATE KEY-----\n***');
    expect(tool('tool_complete', 'w1').args.content).toBe('-----BEGIN RSA PRIVATE KEY-----\n***');
    // The read's result carries the whole file.
    const result = tool('tool_complete', 'r1').result as string;
    expect(result).toContain('-----BEGIN RSA PRIVATE KEY-----');
    expect(result).toContain('postgres://u:***@h/db');
    expect(result).toContain('eyJ***');
    // The session in done: messages, tool call arguments, tool results, reasoning.
    const done = frames.find((f) => f.event === 'done')!.data;
    expect(done.session.messages.at(-1).content).toBe('Done; your key sk-proj-*** is in place.');
    expect(done.session.title).toBe('use sk-*** now');
    expect(leaked(JSON.stringify(presented(frames)))).toEqual([]);

    // Presentation only: the tool wrote the real content, the model read it back, the disk keeps it.
    expect(await readFile(join(t.workspace, 'secrets.txt'), 'utf8')).toBe(FILE_CONTENT);
    const third = t.turnRequests()[2];
    expect(third.messages.findLast((m: any) => m.role === 'tool').content).toContain(PEM_BODY.split('\n')[0]);
    const onDisk = await readFile(join(t.stateDir, 'sessions', `${sid}.json`), 'utf8');
    expect(allPresent(onDisk)).toBe(true);

    // A replay (from the journal, the run is gone) shows the same masked events.
    const replay = await t.stream(start.body.stream_id);
    expect(replay.map((f) => f.event)).toEqual(frames.map((f) => f.event));
    expect(leaked(JSON.stringify(presented(replay)))).toEqual([]);
    const journal = await readFile(join(t.stateDir, 'sessions', '_run_journal', sid, `${start.body.stream_id}.jsonl`), 'utf8');
    const journalEvents = journal
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.event !== 'token' && e.event !== 'reasoning');
    expect(leaked(JSON.stringify(journalEvents))).toEqual([]);
  });

  it('a provisional title too short for the whole key stops before it (half a key cannot be recognised)', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'ok' }]);
    const start = await t.start(sid, `deploy with ${KEY} please`);
    expect(start.body.title).toBe('deploy with');
    await t.stream(start.body.stream_id);
  });

  it('masks a generated title in the title event', async () => {
    t.model.setRouter((req) => (isTitleRequest(req) ? [{ text: `Key ${SHORT_KEY}` }] : undefined));
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'ok' }]);
    const frames = await t.stream((await t.start(sid, 'hello')).body.stream_id);
    expect(frames.find((f) => f.event === 'title')!.data.title).toBe('Key sk-***');
    expect((await t.deps.sessions.get(sid))!.title).toBe(`Key ${SHORT_KEY}`);
  });

  it('masks the session in apperror', async () => {
    const sid = await t.newSession();
    t.model.enqueue({ status: 401, body: { error: { message: 'bad key' } } });
    const frames = await t.stream((await t.start(sid, `use ${KEY} and ${DB}`)).body.stream_id);
    const error = frames.find((f) => f.event === 'apperror')!;
    expect(error.data.session.messages[0].content).toBe('use sk-proj-*** and postgres://u:***@h/db');
    expect(leaked(JSON.stringify(frames))).toEqual([]);
  });

  it('with api_redact_enabled=false the events carry the originals', async () => {
    expect((await t.call('POST', '/api/settings', { api_redact_enabled: false })).status).toBe(200);
    const sid = await t.newSession();
    enqueueSecretTurn(t);
    const start = await t.start(sid, `use ${SHORT_KEY} now`);
    expect(start.body.title).toBe(`use ${SHORT_KEY} now`);
    const frames = await t.stream(start.body.stream_id);
    const result = frames.find((f) => f.event === 'tool_complete' && f.data.tool_call_id === 'r1')!.data.result as string;
    expect(result).toContain(PEM_BODY.split('\n')[0]);
    expect(result).toContain(DB);
    const done = frames.find((f) => f.event === 'done')!.data;
    expect(allPresent(JSON.stringify(done))).toBe(true);
    expect(done.session.messages.at(-1).content).toBe(`Done; your key ${KEY} is in place.`);
  });
});
