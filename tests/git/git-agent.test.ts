import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMIT_MESSAGE_INSTRUCTIONS } from '../../src/git/commit-message.js';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { git, initRepo, write } from './repo-fixture.js';

let t: ChatHarness;
afterEach(async () => {
  await t?.close();
});

const isCommitMessageRequest = (req: { body: any }) => req.body?.messages?.[0]?.content === COMMIT_MESSAGE_INSTRUCTIONS;

describe('git and the agent', () => {
  it('refuses a destructive operation while a turn runs in a session on the same repository', async () => {
    t = await makeChatApp({ env: { HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE: '1' } });
    const repo = await initRepo(join(t.dir, 'repo'));
    await write(repo, 'README.md', 'changed\n');
    const running = await t.newSession({ workspace: repo });
    const other = await t.newSession({ workspace: repo });
    // The turn waits mid-answer until it is cancelled.
    t.model.enqueue([{ text: 'working' }, { delayMs: 30_000 }, { text: 'done' }]);
    const start = await t.start(running, 'go');
    expect(start.status).toBe(200);
    const streamId = start.body.stream_id;
    for (const sid of [running, other]) {
      const r = await t.call('POST', '/api/git/stage', { session_id: sid, paths: ['README.md'] });
      expect(r.status).toBe(409);
      expect(r.body).toEqual({ error: 'A session run is active. Wait for it to finish before running this Git operation.', code: 'active_stream' });
    }
    // Reading is never refused.
    expect((await t.call('GET', `/api/git/status?session_id=${other}`)).status).toBe(200);
    expect(git(repo, 'diff', '--cached', '--name-only').trim()).toBe('');
    await t.call('POST', '/api/chat/cancel', { stream_id: streamId });
    await t.stream(streamId);
    const after = await t.call('POST', '/api/git/stage', { session_id: other, paths: ['README.md'] });
    expect(after.status).toBe(200);
  });

  it('suggests a commit message from the staged diff with the session model', async () => {
    t = await makeChatApp();
    const repo = await initRepo(join(t.dir, 'repo'), { 'app.js': 'let x = 1;\n' });
    const sid = await t.newSession({ workspace: repo });
    const none = await t.call('POST', '/api/git/commit-message', { session_id: sid });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('Stage changes before generating a commit message');

    await write(repo, 'app.js', 'let x = 2;\n');
    git(repo, 'add', 'app.js');
    t.model.setRouter((req) => (isCommitMessageRequest(req) ? [{ text: '```\n"Raise x to 2"\n```' }] : undefined));
    const r = await t.call('POST', '/api/git/commit-message', { session_id: sid });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, message: 'Raise x to 2', truncated: false });
    const asked = t.model.requests.find(isCommitMessageRequest)!;
    expect(asked.body.model).toBe('test-model');
    expect(asked.body.messages[1].content).toContain('+let x = 2;');
    expect(asked.body.messages[1].content).toContain('- M app.js (+1 -1)');
  });

  it('cuts the diff it sends at 64 KB and says so', async () => {
    t = await makeChatApp();
    const repo = await initRepo(join(t.dir, 'repo'));
    const sid = await t.newSession({ workspace: repo });
    await write(repo, 'big.txt', `${'y'.repeat(79)}\n`.repeat(2000));
    git(repo, 'add', 'big.txt');
    t.model.setRouter((req) => (isCommitMessageRequest(req) ? [{ text: 'Add big.txt' }] : undefined));
    const r = await t.call('POST', '/api/git/commit-message', { session_id: sid });
    expect(r.body).toEqual({ ok: true, message: 'Add big.txt', truncated: true });
    const asked = t.model.requests.find(isCommitMessageRequest)!;
    expect(asked.body.messages[1].content.length).toBeLessThan(66 * 1024);
  });
});
