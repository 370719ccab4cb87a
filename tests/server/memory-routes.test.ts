import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { parseEntries } from '../../src/agent/tools/memory-store.js';

/** A key the redaction rules recognise (not a real one). */
const KEY = 'sk-proj-Abc123Def456Ghi789Jkl012Mno345';

describe('memory routes', () => {
  let t: TestApp;
  const mem = () => join(t.hermesHome, 'memories');
  const memFile = () => join(mem(), 'MEMORY.md');
  const write = (body: unknown, headers?: Record<string, string>) => t.call('POST', '/api/memory/write', body, headers);
  const get = (headers?: Record<string, string>) => t.call('GET', '/api/memory', undefined, headers);

  beforeEach(async () => {
    t = await makeTestApp();
  });
  afterEach(async () => {
    await t?.close();
  });

  it('reads a hand-written MEMORY.md as its § entries, with the incumbent fields and usage', async () => {
    await mkdir(mem(), { recursive: true });
    await writeFile(memFile(), 'Uses pnpm\n§\nDeploys with\ntwo steps\n§\n\n');
    await writeFile(join(t.hermesHome, 'SOUL.md'), 'You are calm.');
    const r = await get();
    expect(r.status).toBe(200);
    const st = await stat(memFile());
    expect(r.body).toMatchObject({
      memory: 'Uses pnpm\n§\nDeploys with\ntwo steps\n§\n\n',
      user: '',
      soul: 'You are calm.',
      memory_path: memFile(),
      user_path: join(mem(), 'USER.md'),
      soul_path: join(t.hermesHome, 'SOUL.md'),
      memory_mtime: st.mtimeMs / 1000,
      user_mtime: null,
      profile: 'default',
    });
    expect(r.body.sections.memory).toEqual({
      enabled: true,
      writable: true,
      hint: null,
      entries: ['Uses pnpm', 'Deploys with\ntwo steps'],
      used: 'Uses pnpm\n§\nDeploys with\ntwo steps'.length,
      limit: 2200,
    });
    expect(r.body.sections.user).toMatchObject({ entries: [], used: 0, limit: 1375 });
  });

  it('writes in Hermes format, which parses back to the same entries, and answers the new state', async () => {
    const r = await write({ section: 'memory', content: 'First\n§\nSecond line\nand more' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, section: 'memory', path: memFile() });
    const text = await readFile(memFile(), 'utf8');
    expect(text).toBe('First\n§\nSecond line\nand more');
    expect(parseEntries(text)).toEqual(['First', 'Second line\nand more']);
    expect(r.body.sections.memory.entries).toEqual(['First', 'Second line\nand more']);
    expect(r.body.memory_mtime).toBe((await stat(memFile())).mtimeMs / 1000);

    const soul = await write({ section: 'soul', content: '# Soul\n\nBe brief.\n' });
    expect(soul.status).toBe(200);
    expect(await readFile(join(t.hermesHome, 'SOUL.md'), 'utf8')).toBe('# Soul\n\nBe brief.\n');
  });

  it('refuses a bad section, a missing content and a wrong type with 400', async () => {
    expect((await write({ section: 'notes', content: 'x' })).body.error).toMatch(/section must be "memory", "user", or "soul"/);
    expect((await write({ section: 'notes', content: 'x' })).status).toBe(400);
    expect((await write({ section: 'memory' })).status).toBe(400);
    expect((await write({ section: 'memory', content: 'x', mtime: 'yesterday' })).status).toBe(400);
  });

  it('403 for a section config.yaml disables, and GET does not read it', async () => {
    await writeFile(join(t.hermesHome, 'config.yaml'), '# mine\nmemory:\n  memory_enabled: false\n  user_profile_enabled: "no"\n');
    await mkdir(mem(), { recursive: true });
    await writeFile(memFile(), 'secret plans');
    const w = await write({ section: 'memory', content: 'x' });
    expect(w.status).toBe(403);
    expect(w.body.error).toMatch(/^Memory is disabled by configuration \(memory_enabled: false\)\. Turn it on in .*config\.yaml/);
    const u = await write({ section: 'user', content: 'x' });
    expect(u.status).toBe(403);
    expect(u.body.error).toMatch(/User profile is disabled by configuration \(user_profile_enabled: false\)/);
    expect(await readFile(memFile(), 'utf8')).toBe('secret plans');
    const r = await get();
    expect(r.body).toMatchObject({ memory: '', memory_path: '', memory_mtime: null, user_path: '' });
    expect(r.body.sections.memory).toMatchObject({ enabled: false, writable: false, entries: [] });
    // SOUL.md has no switch.
    expect((await write({ section: 'soul', content: 'ok' })).status).toBe(200);
  });

  it('honours the character limits from config.yaml: over them is 422 with the figures, and nothing is written', async () => {
    await writeFile(join(t.hermesHome, 'config.yaml'), 'memory:\n  memory_char_limit: 20\n');
    expect((await write({ section: 'memory', content: 'short' })).status).toBe(200);
    const r = await write({ section: 'memory', content: 'short\n§\nthis one is far too long' });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ section: 'memory', used: 'short\n§\nthis one is far too long'.length, limit: 20 });
    expect(r.body.error).toMatch(/MEMORY\.md would be 32 characters, over its limit of 20/);
    expect(await readFile(memFile(), 'utf8')).toBe('short');
    expect((await get()).body.sections.memory.limit).toBe(20);
  });

  it('a file already over its limit may still shrink', async () => {
    await writeFile(join(t.hermesHome, 'config.yaml'), 'memory:\n  user_char_limit: 10\n');
    await mkdir(mem(), { recursive: true });
    await writeFile(join(mem(), 'USER.md'), 'aaaaaaaaaaaa\n§\nbbbbbbbbbbbb');
    expect((await write({ section: 'user', content: 'aaaaaaaaaaaa' })).status).toBe(200);
    expect((await write({ section: 'user', content: 'aaaaaaaaaaaa\n§\nc' })).status).toBe(422);
  });

  it('409 when the file changed since the client read it; the current mtime is given', async () => {
    const first = await write({ section: 'memory', content: 'one' });
    const mtime = first.body.memory_mtime as number;
    expect((await write({ section: 'memory', content: 'two', mtime })).status).toBe(200);
    // Someone else (the CLI, the agent) wrote it meanwhile.
    await writeFile(memFile(), 'theirs');
    await utimes(memFile(), new Date(), new Date(Date.now() + 5000));
    const r = await write({ section: 'memory', content: 'mine', mtime });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/MEMORY\.md changed elsewhere since it was read — reload it; nothing was saved/);
    expect(r.body.mtime).toBe((await stat(memFile())).mtimeMs / 1000);
    expect(await readFile(memFile(), 'utf8')).toBe('theirs');
    // A missing file read as null: creating it elsewhere is a change too.
    expect((await write({ section: 'user', content: 'x', mtime: null })).status).toBe(200);
    await writeFile(join(t.hermesHome, 'SOUL.md'), 'new');
    expect((await write({ section: 'soul', content: 'x', mtime: null })).status).toBe(409);
  });

  it('refuses a symlinked file or memories folder with 403 and leaves the target alone', async () => {
    const outside = join(t.dir, 'outside.txt');
    await writeFile(outside, 'keep me');
    await mkdir(mem(), { recursive: true });
    await symlink(outside, memFile());
    const r = await write({ section: 'memory', content: 'x' });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatch(/Cannot write to a symlinked memory file/);
    expect(await readFile(outside, 'utf8')).toBe('keep me');
    expect((await get()).body.sections.memory).toMatchObject({ writable: false, hint: expect.stringMatching(/symlink/) });

    await symlink(outside, join(t.hermesHome, 'SOUL.md'));
    expect((await write({ section: 'soul', content: 'x' })).status).toBe(403);

    // The folder itself a link to somewhere else.
    const elsewhere = join(t.dir, 'elsewhere');
    await mkdir(elsewhere);
    const t2 = await makeTestApp();
    try {
      await symlink(elsewhere, join(t2.hermesHome, 'memories'));
      const u = await t2.call('POST', '/api/memory/write', { section: 'user', content: 'x' });
      expect(u.status).toBe(403);
      expect(u.body.error).toMatch(/memories is a symlink/);
    } finally {
      await t2.close();
    }
  });

  it('refuses a read-only file with 403 and the chmod hint', async () => {
    await mkdir(mem(), { recursive: true });
    await writeFile(memFile(), 'fixed');
    // root ignores permission bits: an immutable file is what stays unwritable for it.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) execFileSync('chattr', ['+i', memFile()]);
    else await chmod(memFile(), 0o444);
    try {
      const r = await write({ section: 'memory', content: 'changed' });
      expect(r.status).toBe(403);
      expect(r.body.error).toMatch(/^MEMORY\.md is not writable: .*MEMORY\.md\. Run chmod 644 on the file/);
      expect((await get()).body.sections.memory.writable).toBe(false);
      expect(await readFile(memFile(), 'utf8')).toBe('fixed');
    } finally {
      if (asRoot) execFileSync('chattr', ['-i', memFile()]);
      else await chmod(memFile(), 0o644);
    }
  });

  it('shows secrets masked and keeps them when the masked entries come back unchanged or partly edited', async () => {
    await mkdir(mem(), { recursive: true });
    const original = `OpenAI key ${KEY}\nfor the lab\n§\nLikes tea`;
    await writeFile(memFile(), original);
    const r = await get();
    expect(r.body.memory).not.toContain(KEY);
    const [masked, tea] = r.body.sections.memory.entries as [string, string];
    expect(masked).toMatch(/sk-proj-\*\*\*/);
    expect(r.body.sections.memory.used).toBe(original.length);

    // The panel sends the masked entry back as shown, plus an edit of the other and a new one.
    const w = await write({ section: 'memory', content: [masked, `${tea} and coffee`, 'New'].join('\n§\n') });
    expect(w.status).toBe(200);
    expect(await readFile(memFile(), 'utf8')).toBe(`OpenAI key ${KEY}\nfor the lab\n§\nLikes tea and coffee\n§\nNew`);

    // An edit inside the masked entry: the untouched masked line keeps its secret.
    const edited = masked.replace('for the lab', 'for the lab and home');
    expect((await write({ section: 'memory', content: edited })).status).toBe(200);
    expect(await readFile(memFile(), 'utf8')).toBe(`OpenAI key ${KEY}\nfor the lab and home`);

    // SOUL.md: a paragraph edit elsewhere keeps the masked one.
    await writeFile(join(t.hermesHome, 'SOUL.md'), `Intro\n\nToken: Bearer ${KEY}\n`);
    const soul = (await get()).body.soul as string;
    expect(soul).not.toContain(KEY);
    expect((await write({ section: 'soul', content: soul.replace('Intro', 'Hello') })).status).toBe(200);
    expect(await readFile(join(t.hermesHome, 'SOUL.md'), 'utf8')).toBe(`Hello\n\nToken: Bearer ${KEY}\n`);
  });

  it('uses the profile the hermes_profile cookie names, with its own files and config', async () => {
    const work = join(t.hermesHome, 'profiles', 'work');
    await mkdir(join(work, 'memories'), { recursive: true });
    await writeFile(join(work, 'memories', 'MEMORY.md'), 'Work fact');
    await writeFile(join(work, 'config.yaml'), 'memory:\n  memory_char_limit: 500\n');
    await write({ section: 'memory', content: 'Default fact' });
    const cookie = { Cookie: 'hermes_profile=work' };
    const r = await get(cookie);
    expect(r.body).toMatchObject({ profile: 'work', memory_path: join(work, 'memories', 'MEMORY.md') });
    expect(r.body.sections.memory).toMatchObject({ entries: ['Work fact'], limit: 500 });
    expect((await write({ section: 'user', content: 'Works nights' }, cookie)).status).toBe(200);
    expect(await readFile(join(work, 'memories', 'USER.md'), 'utf8')).toBe('Works nights');
    await expect(stat(join(mem(), 'USER.md'))).rejects.toThrow();
    expect((await get()).body.sections.memory.entries).toEqual(['Default fact']);
  });
});
