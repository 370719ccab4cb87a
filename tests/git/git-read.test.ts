import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { addBareRemote, git, initRepo, write } from './repo-fixture.js';

let t: TestApp;
let repo: string;
let sid: string;

beforeEach(async () => {
  t = await makeTestApp();
  repo = await initRepo(join(t.dir, 'repo'), { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'bee\n', 'gone.txt': 'x\ny\n', 'old.txt': 'move me\n' });
  sid = await t.newSession({ workspace: repo });
});
afterEach(async () => {
  await t.close();
});

const status = async () => {
  const r = await t.call('GET', `/api/git/status?session_id=${sid}`);
  expect(r.status).toBe(200);
  return r.body.git;
};
const file = (s: any, path: string) => s.files.find((f: any) => f.path === path);

describe('GET /api/git/status', () => {
  it('reports every kind of change with its line counts', async () => {
    await write(repo, 'a.txt', 'one\nTWO\nthree\nfour\n'); // unstaged: +2 -1
    await write(repo, 'b.txt', 'bee\nsting\n');
    git(repo, 'add', 'b.txt'); // staged: +1
    git(repo, 'rm', '-q', 'gone.txt'); // staged delete: -2
    git(repo, 'mv', 'old.txt', 'new.txt'); // staged rename
    await write(repo, 'fresh/n.txt', 'l1\nl2\nl3\n'); // untracked: 3 lines
    await write(repo, '.gitignore', 'build/\n');
    await write(repo, 'build/out.bin', 'ignored');
    const s = await status();
    expect(s).toMatchObject({ is_git: true, branch: 'main', upstream: '', ahead: 0, behind: 0, detached: false, truncated: false });
    expect(file(s, 'a.txt')).toMatchObject({ status: 'M', staged: false, unstaged: true, untracked: false, conflict: false, additions: 2, deletions: 1 });
    expect(file(s, 'b.txt')).toMatchObject({ status: 'M', staged: true, unstaged: false, additions: 1, deletions: 0 });
    expect(file(s, 'gone.txt')).toMatchObject({ status: 'D', staged: true, deletions: 2 });
    expect(file(s, 'new.txt')).toMatchObject({ status: 'R', old_path: 'old.txt', staged: true, additions: 0, deletions: 0 });
    expect(file(s, 'fresh/n.txt')).toMatchObject({ status: '??', untracked: true, staged: false, unstaged: false, additions: 3 });
    expect(file(s, 'build/')).toMatchObject({ status: 'Ignored', ignored: true });
    expect(s.totals).toEqual({ changed: 6, staged: 3, unstaged: 1, untracked: 2, conflicts: 0 });
  });

  it('marks both sides of a real merge conflict', async () => {
    git(repo, 'checkout', '-q', '-b', 'other');
    await write(repo, 'a.txt', 'theirs\n');
    git(repo, 'commit', '-q', '-am', 'theirs');
    git(repo, 'checkout', '-q', 'main');
    await write(repo, 'a.txt', 'ours\n');
    git(repo, 'commit', '-q', '-am', 'ours');
    expect(() => git(repo, 'merge', '-q', 'other')).toThrow();
    const s = await status();
    expect(file(s, 'a.txt')).toMatchObject({ status: 'UU', conflict: true });
    expect(s.totals.conflicts).toBe(1);
  });

  it('counts ahead and behind against a local bare remote', async () => {
    addBareRemote(repo, join(t.dir, 'remote.git'));
    const clone = join(t.dir, 'clone');
    git(t.dir, 'clone', '-q', join(t.dir, 'remote.git'), clone);
    git(clone, '-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'theirs');
    git(clone, 'push', '-q');
    git(repo, 'fetch', '-q');
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'mine 1');
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'mine 2');
    const s = await status();
    expect(s).toMatchObject({ upstream: 'origin/main', ahead: 2, behind: 1 });
    const info = await t.call('GET', `/api/git-info?session_id=${sid}`);
    expect(info.body).toEqual({ git: { branch: 'main', dirty: 0, modified: 0, untracked: 0, ahead: 2, behind: 1, is_git: true } });
  });

  it('shows a detached HEAD by its commit and a repository with no commits yet', async () => {
    const head = git(repo, 'rev-parse', '--short=7', 'HEAD').trim();
    git(repo, 'checkout', '-q', '--detach');
    expect(await status()).toMatchObject({ branch: head, head, detached: true });
    const branches = await t.call('GET', `/api/git/branches?session_id=${sid}`);
    expect(branches.body.branches).toMatchObject({ current: head, detached: true });

    const empty = await initRepo(join(t.dir, 'empty'), {});
    await write(empty, 'x.txt', 'x\n');
    git(empty, 'add', 'x.txt');
    const esid = await t.newSession({ workspace: empty });
    const r = await t.call('GET', `/api/git/status?session_id=${esid}`);
    expect(r.body.git).toMatchObject({ branch: 'main', head: '', detached: false });
    expect(file(r.body.git, 'x.txt')).toMatchObject({ status: 'A', staged: true });
  });

  it('answers a workspace outside any repository as the incumbent does', async () => {
    const plain = join(t.dir, 'plain');
    await write(plain, 'f.txt', 'f');
    const psid = await t.newSession({ workspace: plain });
    expect((await t.call('GET', `/api/git/status?session_id=${psid}`)).body).toEqual({ git: { is_git: false } });
    expect((await t.call('GET', `/api/git-info?session_id=${psid}`)).body).toEqual({ git: null });
    const b = await t.call('GET', `/api/git/branches?session_id=${psid}`);
    expect(b.status).toBe(400);
    expect(b.body).toEqual({ error: 'Workspace is not a Git repository', code: 'not_a_repo' });
    expect((await t.call('GET', '/api/git/status?session_id=nosuch')).status).toBe(404);
  });

  it('limits a workspace inside a repository to that folder, paths relative to it', async () => {
    await write(repo, 'sub/in.txt', 'in\n');
    git(repo, 'add', 'sub');
    git(repo, 'commit', '-q', '-m', 'sub');
    await write(repo, 'sub/in.txt', 'in\nmore\n');
    await write(repo, 'a.txt', 'outside change\n');
    const ssid = await t.newSession({ workspace: join(repo, 'sub') });
    const r = await t.call('GET', `/api/git/status?session_id=${ssid}`);
    expect(r.body.git.files.map((f: any) => f.path)).toEqual(['in.txt']);
    const d = await t.call('GET', `/api/git/diff?session_id=${ssid}&path=in.txt&kind=unstaged`);
    expect(d.body.diff).toMatchObject({ path: 'in.txt', additions: 1, deletions: 0 });
  });
});

describe('GET /api/git/branches', () => {
  it('lists local and remote branches with upstream tracking', async () => {
    addBareRemote(repo, join(t.dir, 'remote.git'));
    git(repo, 'branch', 'feature');
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'ahead');
    const r = await t.call('GET', `/api/git/branches?session_id=${sid}`);
    expect(r.status).toBe(200);
    const b = r.body.branches;
    expect(b).toMatchObject({ is_git: true, current: 'main', detached: false, upstream: 'origin/main', ahead: 1, behind: 0 });
    expect(b.local.map((x: any) => x.name)).toEqual(['feature', 'main']);
    expect(b.local[1]).toMatchObject({ name: 'main', upstream: 'origin/main', ahead: 1, behind: 0, subject: 'ahead', author: 'Test' });
    expect(b.remote.map((x: any) => x.name)).toEqual(['origin/main']);
  });
});

describe('GET /api/git/diff', () => {
  it('gives staged, unstaged and untracked diffs', async () => {
    await write(repo, 'a.txt', 'one\n2\nthree\n');
    git(repo, 'add', 'a.txt');
    await write(repo, 'a.txt', 'one\n2\n3\n');
    await write(repo, 'u.txt', 'new\nfile\n');
    const staged = await t.call('GET', `/api/git/diff?session_id=${sid}&path=a.txt&kind=staged`);
    expect(staged.body.diff).toMatchObject({ path: 'a.txt', kind: 'staged', additions: 1, deletions: 1, binary: false, too_large: false, truncated: false });
    expect(staged.body.diff.diff).toContain('-two\n+2');
    const unstaged = await t.call('GET', `/api/git/diff?session_id=${sid}&path=a.txt`);
    expect(unstaged.body.diff.kind).toBe('unstaged');
    expect(unstaged.body.diff.diff).toContain('-three\n+3');
    for (const kind of ['untracked', 'unstaged']) {
      const u = await t.call('GET', `/api/git/diff?session_id=${sid}&path=u.txt&kind=${kind}`);
      expect(u.body.diff).toMatchObject({ path: 'u.txt', kind: 'untracked', additions: 2, deletions: 0 });
      expect(u.body.diff.diff).toContain('+new\n+file');
    }
    expect((await t.call('GET', `/api/git/diff?session_id=${sid}&path=a.txt&kind=bogus`)).status).toBe(400);
  });

  it('cuts a diff at 512 KB and says so; marks binary files', async () => {
    await writeFile(join(repo, 'a.txt'), `${'x'.repeat(99)}\n`.repeat(7000));
    const big = await t.call('GET', `/api/git/diff?session_id=${sid}&path=a.txt&kind=unstaged`);
    expect(big.body.diff).toMatchObject({ too_large: true, truncated: true });
    expect(big.body.diff.diff.length).toBeLessThanOrEqual(512 * 1024);
    await writeFile(join(repo, 'b.txt'), Buffer.from([0, 1, 2, 3, 0, 255]));
    const bin = await t.call('GET', `/api/git/diff?session_id=${sid}&path=b.txt&kind=unstaged`);
    expect(bin.body.diff).toMatchObject({ binary: true, diff: '' });
  });

  it('refuses a .. path, an absolute path and a link out of the workspace', async () => {
    for (const path of ['../x', 'a/../../x', '/etc/passwd']) {
      const r = await t.call('GET', `/api/git/diff?session_id=${sid}&path=${encodeURIComponent(path)}&kind=untracked`);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('path_outside_workspace');
    }
    await symlink('/etc', join(repo, 'out'));
    const r = await t.call('GET', `/api/git/diff?session_id=${sid}&path=out%2Fpasswd&kind=untracked`);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(r.body)).not.toContain('root:');
  });
});

describe('without git (Workers)', () => {
  it('answers 501 with the reason', async () => {
    // The Workers composition has no GitRunner: the same app over the same deps without one.
    const app = createApp({ ...t.deps, git: undefined });
    for (const path of [`/api/git/status?session_id=${sid}`, `/api/git-info?session_id=${sid}`]) {
      const res = await app.request(path);
      expect(res.status).toBe(501);
      const body = (await res.json()) as { error: string; code: string };
      expect(body.code).toBe('missing_git');
      expect(body.error).toContain('not available');
    }
  });
});
