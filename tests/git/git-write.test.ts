import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { addBareRemote, git, initRepo, write } from './repo-fixture.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

async function setup(destructive: boolean) {
  t = await makeTestApp({ env: destructive ? { HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE: '1' } : {} });
  const repo = await initRepo(join(t.dir, 'repo'), { 'a.txt': 'one\n', 'b.txt': 'bee\n' });
  const sid = await t.newSession({ workspace: repo });
  return { repo, sid };
}

describe('destructive git operations, flag off', () => {
  it('refuses each with 403 and the incumbent code, and changes nothing; fetch is still allowed', async () => {
    const { repo, sid } = await setup(false);
    addBareRemote(repo, join(t.dir, 'remote.git'));
    await write(repo, 'a.txt', 'changed\n');
    const bodies: Record<string, object> = {
      stage: { paths: ['a.txt'] },
      unstage: { paths: ['a.txt'] },
      discard: { paths: ['a.txt'] },
      commit: { message: 'x' },
      pull: {},
      push: {},
      checkout: { ref: 'main', mode: 'local' },
    };
    for (const [action, body] of Object.entries(bodies)) {
      const r = await t.call('POST', `/api/git/${action}`, { session_id: sid, ...body });
      expect(r.status, action).toBe(403);
      expect(r.body.code).toBe('destructive_git_disabled');
      expect(r.body.error).toContain('HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE=1');
    }
    expect(await readFile(join(repo, 'a.txt'), 'utf8')).toBe('changed\n');
    const f = await t.call('POST', '/api/git/fetch', { session_id: sid });
    expect(f.status).toBe(200);
    expect(f.body).toMatchObject({ ok: true, status: { is_git: true, upstream: 'origin/main' } });
  });
});

describe('destructive git operations, flag on', () => {
  it('stages, unstages, discards and commits', async () => {
    const { repo, sid } = await setup(true);
    await write(repo, 'a.txt', 'one\ntwo\n');
    await write(repo, 'b.txt', 'scribble\n');
    await write(repo, 'new.txt', 'n\n');
    const staged = await t.call('POST', '/api/git/stage', { session_id: sid, paths: ['a.txt', 'new.txt'] });
    expect(staged.status).toBe(200);
    expect(staged.body.ok).toBe(true);
    expect(staged.body.git.totals).toMatchObject({ staged: 2, unstaged: 1 });
    const un = await t.call('POST', '/api/git/unstage', { session_id: sid, path: 'new.txt' });
    expect(un.body.git.files.find((f: any) => f.path === 'new.txt')).toMatchObject({ untracked: true });
    const d = await t.call('POST', '/api/git/discard', { session_id: sid, paths: ['b.txt'] });
    expect(d.status).toBe(200);
    expect(await readFile(join(repo, 'b.txt'), 'utf8')).toBe('bee\n');
    const keep = await t.call('POST', '/api/git/discard', { session_id: sid, paths: ['new.txt'] });
    expect(keep.status).toBe(400);
    expect(keep.body.error).toContain('delete_untracked');
    const del = await t.call('POST', '/api/git/discard', { session_id: sid, paths: ['new.txt'], delete_untracked: true });
    expect(del.status).toBe(200);
    await expect(stat(join(repo, 'new.txt'))).rejects.toThrow();
    const c = await t.call('POST', '/api/git/commit', { session_id: sid, message: 'Add a second line\n\n- because' });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ ok: true, status: { totals: { changed: 0 } } });
    expect(c.body.commit).toBe(git(repo, 'rev-parse', '--short', 'HEAD').trim());
    expect(git(repo, 'log', '-1', '--format=%B').trim()).toBe('Add a second line\n\n- because');
    const empty = await t.call('POST', '/api/git/commit', { session_id: sid, message: '  ' });
    expect(empty.status).toBe(400);
  });

  it('checks out a new and an existing branch, and refuses a dirty worktree', async () => {
    const { repo, sid } = await setup(true);
    const n = await t.call('POST', '/api/git/checkout', { session_id: sid, ref: 'feature/x', mode: 'new' });
    expect(n.status).toBe(200);
    expect(n.body).toMatchObject({ ok: true, current_branch: 'feature/x', git: { branch: 'feature/x' }, branches: { current: 'feature/x' } });
    const back = await t.call('POST', '/api/git/checkout', { session_id: sid, ref: 'main', mode: 'local' });
    expect(back.body.current_branch).toBe('main');
    await write(repo, 'a.txt', 'dirty\n');
    const dirty = await t.call('POST', '/api/git/checkout', { session_id: sid, ref: 'feature/x', mode: 'local' });
    expect(dirty.status).toBe(400);
    expect(dirty.body.code).toBe('dirty_worktree');
    expect(git(repo, 'branch', '--show-current').trim()).toBe('main');
  });

  it('refuses hostile branch names and paths without running them', async () => {
    const { repo, sid } = await setup(true);
    for (const ref of ['--upload-pack=evil', '../x', '-b', 'a..b', 'x y']) {
      for (const mode of ['new', 'local']) {
        const r = await t.call('POST', '/api/git/checkout', { session_id: sid, ref, mode });
        expect(r.status, `${mode} ${ref}`).toBe(400);
        expect(r.body.code).toBe('invalid_ref');
      }
    }
    expect(git(repo, 'branch', '--format=%(refname:short)').trim()).toBe('main');
    for (const path of ['../outside.txt', '/etc/passwd', 'a/../../b']) {
      const r = await t.call('POST', '/api/git/stage', { session_id: sid, paths: [path] });
      expect(r.status, path).toBe(400);
      expect(r.body.code).toBe('path_outside_workspace');
    }
    // A name that looks like an option or pathspec magic is just a file name after `--`.
    await write(repo, '--all', 'odd\n');
    await write(repo, 'c.txt', 'c\n');
    const odd = await t.call('POST', '/api/git/stage', { session_id: sid, paths: ['--all'] });
    expect(odd.status).toBe(200);
    expect(odd.body.git.files.filter((f: any) => f.staged).map((f: any) => f.path)).toEqual(['--all']);
    const magic = await t.call('POST', '/api/git/stage', { session_id: sid, paths: [':(glob)*.txt'] });
    expect(magic.status).toBe(400);
  });

  it('pulls fast-forward only and pushes to a local bare remote', async () => {
    const { repo, sid } = await setup(true);
    const bare = join(t.dir, 'remote.git');
    addBareRemote(repo, bare);
    const clone = join(t.dir, 'clone');
    git(t.dir, 'clone', '-q', bare, clone);
    await write(clone, 'theirs.txt', 't\n');
    git(clone, 'add', '.');
    git(clone, '-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-q', '-m', 'theirs');
    git(clone, 'push', '-q');
    const pulled = await t.call('POST', '/api/git/pull', { session_id: sid });
    expect(pulled.status).toBe(200);
    expect(pulled.body).toMatchObject({ ok: true, status: { ahead: 0, behind: 0 } });
    expect(await readFile(join(repo, 'theirs.txt'), 'utf8')).toBe('t\n');

    git(repo, 'commit', '-q', '--allow-empty', '-m', 'mine');
    const pushed = await t.call('POST', '/api/git/push', { session_id: sid });
    expect(pushed.status).toBe(200);
    expect(pushed.body.status).toMatchObject({ ahead: 0, behind: 0 });
    expect(git(bare, 'log', '-1', '--format=%s', 'main').trim()).toBe('mine');

    // Diverged: pull refuses to merge, push refuses to overwrite.
    git(clone, 'pull', '-q', '--ff-only');
    git(clone, '-c', 'user.name=T', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'theirs 2');
    git(clone, 'push', '-q');
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'mine 2');
    const rejected = await t.call('POST', '/api/git/push', { session_id: sid });
    expect(rejected.status).toBe(400);
    expect(rejected.body.code).toBe('non_fast_forward');
    const noMerge = await t.call('POST', '/api/git/pull', { session_id: sid });
    expect(noMerge.status).toBe(400);
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('mine 2');
  });

  it('runs one operation per repository: a second commit while one runs is operation_in_progress', async () => {
    const { repo, sid } = await setup(true);
    const marker = join(t.dir, 'hook-started');
    const release = join(t.dir, 'hook-release');
    // The hook holds the first commit until the test has sent the second.
    await writeFile(join(repo, '.git/hooks/pre-commit'), `#!/bin/sh\ntouch '${marker}'\nwhile [ ! -e '${release}' ]; do sleep 0.05; done\n`);
    await chmod(join(repo, '.git/hooks/pre-commit'), 0o755);
    await write(repo, 'a.txt', 'two\n');
    git(repo, 'add', 'a.txt');
    const first = t.call('POST', '/api/git/commit', { session_id: sid, message: 'first' });
    while (!(await stat(marker).catch(() => null))) await new Promise((r) => setTimeout(r, 20));
    const second = await t.call('POST', '/api/git/commit', { session_id: sid, message: 'second' });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ error: 'Another Git operation is still running', code: 'operation_in_progress' });
    await writeFile(release, '');
    expect((await first).status).toBe(200);
    expect(git(repo, 'log', '--format=%s').trim().split('\n')).toEqual(['first', 'initial']);
  });
});
