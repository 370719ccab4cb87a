import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeGitRunner, gitEnv } from '../../src/adapters/platform/node-git.js';

const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'hermes-git-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('NodeGitRunner', () => {
  it('ignores GIT_DIR, GIT_WORK_TREE and injected config from the server environment', async () => {
    const elsewhere = temp();
    const repo = temp();
    const git = new NodeGitRunner({
      ...process.env,
      GIT_DIR: join(elsewhere, '.git'),
      GIT_WORK_TREE: elsewhere,
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'user.name',
      GIT_CONFIG_VALUE_0: 'injected',
    });
    expect((await git.run({ args: ['init', '-q'], cwd: repo, timeoutMs: 5000 })).code).toBe(0);
    const top = await git.run({ args: ['rev-parse', '--show-toplevel'], cwd: repo, timeoutMs: 5000 });
    expect(top.stdout.trim()).toBe(repo);
    const name = await git.run({ args: ['config', 'user.name'], cwd: repo, timeoutMs: 5000 });
    expect(name.stdout.trim()).not.toBe('injected');
  });

  it('never prompts, pages or opens an editor', () => {
    const env = gitEnv({ PATH: '/usr/bin', GIT_ASKPASS: '/evil', GIT_SSH_COMMAND: 'evil', EDITOR: 'vim', OPENAI_API_KEY: 'sk-x' });
    expect(env).toMatchObject({ GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true', GIT_PAGER: 'cat', GIT_EDITOR: 'true', GIT_SSH_COMMAND: 'ssh -oBatchMode=yes' });
    expect(env.EDITOR).toBeUndefined();
    expect(env.OPENAI_API_KEY).toBeUndefined();
  });

  it('feeds stdin, caps output and reports a timeout', async () => {
    const repo = temp();
    const git = new NodeGitRunner();
    await git.run({ args: ['init', '-q'], cwd: repo, timeoutMs: 5000 });
    const hashed = await git.run({ args: ['hash-object', '--stdin'], cwd: repo, timeoutMs: 5000, input: 'hello\n' });
    expect(hashed.stdout.trim()).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    writeFileSync(join(repo, 'big.txt'), 'x'.repeat(100_000));
    const capped = await git.run({ args: ['hash-object', '--no-filters', '-w', 'big.txt'], cwd: repo, timeoutMs: 5000, maxOutputBytes: 10 });
    expect(capped).toMatchObject({ truncated: true, code: 0 });
    expect(capped.stdout.length).toBe(10);
    // An alias that starts a shell: the timeout ends git and what it started.
    const slow = await new NodeGitRunner().run({ args: ['-c', 'alias.wait=!sleep 5', 'wait'], cwd: repo, timeoutMs: 200 });
    expect(slow).toMatchObject({ timedOut: true, code: null });
    expect(await git.available()).toBe(true);
  });
});
