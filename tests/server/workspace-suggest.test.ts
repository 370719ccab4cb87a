import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';

let t: TestApp;

beforeEach(async () => {
  t = await makeTestApp();
});

afterEach(async () => {
  await t.close();
});

const suggest = (prefix?: string) => t.call('GET', `/api/workspaces/suggest${prefix === undefined ? '' : `?prefix=${encodeURIComponent(prefix)}`}`);

/** Folders (and one file) in the default workspace, a trusted root. */
async function tree() {
  for (const d of ['alpha', 'Apple', 'beta', '.hidden', 'alpha/inner']) await mkdir(join(t.workspace, d), { recursive: true });
  await writeFile(join(t.workspace, 'afile.txt'), 'not a folder');
}

describe('GET /api/workspaces/suggest', () => {
  it('completes the last segment to child folders, case-insensitively, in name order, answering the prefix back', async () => {
    await tree();
    const r = await suggest(`${t.workspace}/a`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ suggestions: [join(t.workspace, 'alpha'), join(t.workspace, 'Apple')], prefix: `${t.workspace}/a` });
  });

  it('lists a folder given with a trailing slash (the root itself first), directories only, hidden ones left out', async () => {
    await tree();
    const r = await suggest(`${t.workspace}/`);
    expect(r.body.suggestions).toEqual([t.workspace, join(t.workspace, 'alpha'), join(t.workspace, 'Apple'), join(t.workspace, 'beta')]);
    expect(r.body.suggestions).not.toContain(join(t.workspace, 'afile.txt'));
  });

  it('shows hidden folders only when the typed segment starts with a dot', async () => {
    await tree();
    // `<root>/.` is the root itself, so the root completes first.
    expect((await suggest(`${t.workspace}/.`)).body.suggestions).toEqual([t.workspace, join(t.workspace, '.hidden')]);
    expect((await suggest(`${t.workspace}/.h`)).body.suggestions).toEqual([join(t.workspace, '.hidden')]);
  });

  it('never names a file, even when the prefix names it exactly', async () => {
    await tree();
    expect((await suggest(`${t.workspace}/afile`)).body.suggestions).toEqual([]);
    expect((await suggest(`${t.workspace}/afile.txt/`)).body.suggestions).toEqual([]);
  });

  it('goes deeper below a root, and caps the list at 12', async () => {
    await tree();
    expect((await suggest(`${t.workspace}/alpha/`)).body.suggestions).toEqual([join(t.workspace, 'alpha/inner')]);
    for (let i = 0; i < 20; i++) await mkdir(join(t.workspace, `many-${String(i).padStart(2, '0')}`));
    const r = await suggest(`${t.workspace}/many`);
    expect(r.body.suggestions).toHaveLength(12);
    expect(r.body.suggestions[0]).toBe(join(t.workspace, 'many-00'));
  });

  it('lists nothing outside the trusted roots: `..`, a system folder, a sibling of the default workspace', async () => {
    await mkdir(join(t.dir, 'outside-secret'), { recursive: true });
    const up = await suggest(`${t.workspace}/../`);
    expect(up.status).toBe(200);
    // The parent is no root: only the root it starts (the default workspace) completes.
    expect(up.body.suggestions).toEqual([t.workspace]);
    expect((await suggest(`${t.workspace}/../outside`)).body.suggestions).toEqual([]);
    expect((await suggest('/etc/')).body.suggestions).toEqual([]);
    expect((await suggest('/proc/sel')).body.suggestions).toEqual([]);
  });

  it('follows a symlinked folder only while it stays inside its root', async () => {
    await mkdir(join(t.dir, 'elsewhere'), { recursive: true });
    await mkdir(join(t.workspace, 'real'), { recursive: true });
    await symlink(join(t.dir, 'elsewhere'), join(t.workspace, 'link-out'));
    await symlink(join(t.workspace, 'real'), join(t.workspace, 'link-in'));
    expect((await suggest(`${t.workspace}/link`)).body.suggestions).toEqual([join(t.workspace, 'real')]);
  });

  it('completes under saved workspaces too, and a partly typed root to the root', async () => {
    const saved = join(t.dir, 'projects', 'gamma');
    await mkdir(join(saved, 'src'), { recursive: true });
    expect((await suggest(`${saved}/`)).body.suggestions).toEqual([]);
    expect((await t.call('POST', '/api/workspaces/add', { path: saved })).status).toBe(200);
    expect((await suggest(`${saved}/`)).body.suggestions).toEqual([saved, join(saved, 'src')]);
    expect((await suggest(join(t.dir, 'projects', 'gam'))).body.suggestions).toEqual([saved]);
  });

  it('without a prefix (missing or blank) lists the trusted roots, the default workspace among them', async () => {
    for (const r of [await suggest(), await suggest('   ')]) {
      expect(r.status).toBe(200);
      expect(r.body.suggestions).toContain(t.workspace);
      expect(r.body.suggestions.length).toBeLessThanOrEqual(12);
    }
    expect((await suggest()).body.prefix).toBe('');
  });

  it('refuses a NUL byte and an overlong prefix with a 400 {"error"}', async () => {
    for (const prefix of [`${t.workspace}/\0x`, `/${'a'.repeat(5000)}`]) {
      const r = await suggest(prefix);
      expect(r.status).toBe(400);
      expect(r.res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(typeof r.body.error).toBe('string');
    }
  });

  it('a `~user` prefix or a long missing path matches nothing, without an error', async () => {
    expect((await suggest('~nobody-here/x')).body).toEqual({ suggestions: [], prefix: '~nobody-here/x' });
    expect((await suggest(`${t.workspace}/no/such/place/`)).body.suggestions).toEqual([]);
  });
});

describe('POST /api/session/update while a turn runs', () => {
  let h: ChatHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('refuses another workspace with 409 (the same one, or the model, still change)', async () => {
    h = await makeChatApp();
    const other = join(h.dir, 'other');
    await mkdir(other);
    const sid = await h.newSession();
    h.model.enqueue([{ delayMs: 1500 }, { text: 'slow answer' }, { finish: 'stop' }]);
    const started = await h.start(sid, 'hello');
    expect(started.status).toBe(200);
    const refused = await h.call('POST', '/api/session/update', { session_id: sid, workspace: other });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('Cannot switch workspace while agent is running');
    expect((await h.call('POST', '/api/session/update', { session_id: sid, workspace: h.workspace })).status).toBe(200);
    await h.stream(started.body.stream_id);
    const after = await h.call('POST', '/api/session/update', { session_id: sid, workspace: other });
    expect(after.status).toBe(200);
    expect(after.body.session.workspace).toBe(other);
  });
});
