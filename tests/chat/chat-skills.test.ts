import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';

const toolResult = (req: any, callId: string): string => req.messages.findLast((m: any) => m.role === 'tool' && m.tool_call_id === callId)?.content;
const lastUser = (req: any) => req.messages.findLast((m: any) => m.role === 'user');
const textOf = (m: any): string => (typeof m.content === 'string' ? m.content : m.content.map((p: any) => p.text ?? '').join(''));

const RELEASE = '---\nname: release\ndescription: Cut a release\n---\n# Release\n\nTag with `git tag v$VERSION`, then run scripts/publish.sh.\n';

/** The builtin agent's skills in real turns against the scripted OpenAI server. */
describe('chat: skills of the builtin agent', () => {
  let t: ChatHarness;
  beforeEach(async () => {
    t = await makeChatApp({ storage: 'fs' });
    await mkdir(join(t.hermesHome, 'skills/devops/release/scripts'), { recursive: true });
    await writeFile(join(t.hermesHome, 'skills/devops/release/SKILL.md'), RELEASE);
    await writeFile(join(t.hermesHome, 'skills/devops/release/scripts/publish.sh'), '#!/bin/sh\necho published');
    await mkdir(join(t.hermesHome, 'skills/notes'), { recursive: true });
    await writeFile(join(t.hermesHome, 'skills/notes/SKILL.md'), '---\nname: notes\ndescription: Keep notes\n---\nWrite notes.');
  });
  afterEach(async () => t.close());

  it('lists skills, views one and manages one when the model calls skills_list, skill_view and skill_manage', async () => {
    const sid = await t.newSession();
    t.model.enqueue(
      [{ toolCall: { id: 'l1', name: 'skills_list', args: {} } }],
      [{ toolCall: { id: 'v1', name: 'skill_view', args: { name: 'release' } } }],
      [
        {
          toolCall: {
            id: 'm1',
            name: 'skill_manage',
            args: { action: 'create', name: 'hotfix', category: 'devops', content: '---\nname: hotfix\ndescription: Patch prod\n---\nBranch from the tag.' },
          },
        },
      ],
      [{ text: 'Done.' }],
    );
    await t.stream((await t.start(sid, 'how do we release?')).body.stream_id);
    const reqs = t.turnRequests().slice(-4);
    expect(reqs[0].tools.map((x: any) => x.function.name)).toEqual(expect.arrayContaining(['skills_list', 'skill_view', 'skill_manage']));
    const listed = JSON.parse(toolResult(reqs[1], 'l1'));
    expect(listed.skills).toEqual([
      // Hermes sorts by category ('' first), then name.
      { name: 'notes', description: 'Keep notes', category: null },
      { name: 'release', description: 'Cut a release', category: 'devops' },
    ]);
    const viewed = JSON.parse(toolResult(reqs[2], 'v1'));
    expect(viewed).toMatchObject({ success: true, name: 'release', path: 'devops/release/SKILL.md', linked_files: { scripts: ['scripts/publish.sh'] } });
    expect(viewed.content).toContain('git tag v$VERSION');
    expect(JSON.parse(toolResult(reqs[3], 'm1'))).toMatchObject({ success: true, path: 'devops/hotfix' });
    expect(await readFile(join(t.hermesHome, 'skills/devops/hotfix/SKILL.md'), 'utf8')).toContain('Branch from the tag.');
    const usage = JSON.parse(await readFile(join(t.hermesHome, 'skills/.usage.json'), 'utf8'));
    expect(usage.release).toMatchObject({ view_count: 1, use_count: 1 });
  });

  it('a forced skill (/use, /<skill>) puts the skill into the message the model gets; the stored message keeps the typed text and the marker', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'Tagged.' }]);
    const started = await t.start(sid, 'ship 1.4 today', { skill: 'release' });
    expect(started.status).toBe(200);
    await t.stream(started.body.stream_id);
    const sent = textOf(lastUser(t.turnRequests().at(-1)));
    expect(
      sent.startsWith(
        '[IMPORTANT: The user has invoked the "release" skill, indicating they want you to follow its instructions. The full skill content is loaded below.]',
      ),
    ).toBe(true);
    expect(sent).toContain('Tag with `git tag v$VERSION`');
    expect(sent).toContain(`[Skill directory: ${join(t.hermesHome, 'skills/devops/release')}]`);
    expect(sent).toContain('- scripts/publish.sh');
    expect(sent.endsWith('The user has provided the following instruction alongside the skill invocation: ship 1.4 today')).toBe(true);

    const stored = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session.messages;
    expect(stored[0]).toMatchObject({ role: 'user', content: 'ship 1.4 today', skill: 'release' });
    const usage = JSON.parse(await readFile(join(t.hermesHome, 'skills/.usage.json'), 'utf8'));
    expect(usage.release).toMatchObject({ use_count: 1, view_count: 0 });

    // The next turn: the earlier invocation is still expanded, the new message is plain.
    t.model.enqueue([{ text: 'Sure.' }]);
    await t.stream((await t.start(sid, 'and the changelog?')).body.stream_id);
    const next = t.turnRequests().at(-1);
    const users = next.messages.filter((m: any) => m.role === 'user').map(textOf);
    expect(users[0]).toContain('Tag with `git tag v$VERSION`');
    expect(users[1]).toBe('and the changelog?');
  });

  it('a bare /<skill> needs no text; an unknown skill warns and sends the text alone; a bad skill name is a 400', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'Noted.' }]);
    await t.stream((await t.start(sid, '', { skill: 'notes' })).body.stream_id);
    const bare = textOf(lastUser(t.turnRequests().at(-1)));
    expect(bare).toContain('Write notes.');
    expect(bare).not.toContain('The user has provided the following instruction');

    t.model.enqueue([{ text: 'Hm.' }]);
    const frames = await t.stream((await t.start(sid, 'plain please', { skill: 'ghost' })).body.stream_id);
    expect(frames.find((f) => f.event === 'warning')?.data).toEqual({
      type: 'skill_unavailable',
      message: 'The skill "ghost" could not be loaded; the message was sent without it.',
    });
    expect(textOf(lastUser(t.turnRequests().at(-1)))).toBe('plain please');

    const bad = await t.start(sid, 'x', { skill: 'a b' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/skill/);
    expect((await t.start(sid, '   ', {})).status).toBe(400);
  });
});
