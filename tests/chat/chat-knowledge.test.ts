import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeStateDb, sampleSessions } from '../fixtures/hermes-state-db.js';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';

const toolResult = (req: any, callId: string): string => req.messages.findLast((m: any) => m.role === 'tool' && m.tool_call_id === callId)?.content;

/** The knowledge tools in a real turn: offered with Hermes' names, the skills index in the prompt, results in the tool rows. */
describe('chat: skills, session_search and vision_analyze in a turn', () => {
  let t: ChatHarness;
  beforeEach(async () => {
    t = await makeChatApp({ storage: 'fs' });
  });
  afterEach(async () => t.close());

  it('offers the tools, puts the skills index in the system prompt, and answers skill_view and session_search calls', async () => {
    await mkdir(join(t.hermesHome, 'skills/devops/release'), { recursive: true });
    await writeFile(join(t.hermesHome, 'skills/devops/release/SKILL.md'), '---\nname: release\ndescription: Cut a release\n---\nTag, build, publish.');
    writeStateDb(join(t.hermesHome, 'state.db'), sampleSessions());

    // An earlier conversation of this server, to be recalled from another one.
    const first = await t.newSession();
    t.model.enqueue([{ text: 'The flaky test was a race in the upload queue.' }]);
    await t.stream((await t.start(first, 'why is the upload test flaky?')).body.stream_id);

    const sid = await t.newSession();
    t.model.enqueue(
      [
        { toolCall: { id: 'k1', name: 'skill_view', args: { name: 'release' } } },
        { toolCall: { id: 'k2', name: 'session_search', args: { query: 'upload flaky' } } },
        { toolCall: { id: 'k3', name: 'session_search', args: { query: 'build script' } } },
      ],
      [{ text: 'Found it.' }],
    );
    const frames = await t.stream((await t.start(sid, 'what did we find about the upload test?')).body.stream_id);

    const [req, after] = t.turnRequests().slice(-2);
    const names = req.tools.map((x: any) => x.function.name);
    for (const n of ['session_search', 'skills_list', 'skill_view', 'vision_analyze']) expect(names).toContain(n);
    expect(req.tools.find((x: any) => x.function.name === 'vision_analyze').function.parameters.required).toEqual(['image_url', 'question']);
    const system = req.messages[0].content as string;
    expect(system).toContain('## Skills');
    expect(system).toContain('<available_skills>\n  devops:\n    - release: Cut a release\n</available_skills>');

    expect(JSON.parse(toolResult(after, 'k1'))).toMatchObject({ success: true, name: 'release', content: expect.stringContaining('Tag, build, publish.') });
    const ours = JSON.parse(toolResult(after, 'k2'));
    expect(ours.results.map((r: any) => [r.session_id, r.source])).toEqual([[first, 'webui']]);
    // Hermes' CLI session from state.db (no FTS index in this fixture: the LIKE fallback).
    const theirs = JSON.parse(toolResult(after, 'k3'));
    expect(theirs.results.map((r: any) => [r.session_id, r.source])).toEqual([['20260727_135519_a55c71', 'cli']]);

    // Shown like every tool: a row with the result.
    // Read-only tools run side by side, so they may finish in any order.
    const done = frames.filter((f) => f.event === 'tool_complete').map((f) => `${f.data.tool_call_id}:${f.data.name}:${f.data.is_error}`);
    expect(done.sort()).toEqual(['k1:skill_view:false', 'k2:session_search:false', 'k3:session_search:false']);
    const row = frames.find((f) => f.event === 'tool_complete' && f.data.tool_call_id === 'k2')!;
    expect(String(row.data.result)).toContain('upload queue');
  });

  it('leaves the skills index out when there are no skills', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'Hi.' }]);
    await t.stream((await t.start(sid, 'hello')).body.stream_id);
    expect(t.turnRequests().at(-1).messages[0].content).not.toContain('## Skills');
  });
});
