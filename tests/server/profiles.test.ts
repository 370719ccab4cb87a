import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { parseDotenv } from '../../src/agent/config.js';
import { DocumentHermesHomes } from '../../src/adapters/workers/document-hermes-homes.js';
import { NotAvailable } from '../../src/ports/errors.js';

/** The `hermes_profile=<value>` pair of a Set-Cookie answer. */
const cookieOf = (res: Response) => (res.headers.get('Set-Cookie') ?? '').split(';')[0]!;

describe('profile routes', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp({ configYaml: 'model:\n  default: openai/gpt-5 # the main one\n  provider: openrouter\n' });
  });
  afterEach(async () => {
    await t.close();
  });

  const create = (body: unknown, cookie?: string) => t.call('POST', '/api/profile/create', body, cookie ? { Cookie: cookie } : {});
  const switchTo = async (name: string, cookie?: string) => t.call('POST', '/api/profile/switch', { name }, cookie ? { Cookie: cookie } : {});

  it('lists a hand-made Hermes profiles tree with each model and skill count', async () => {
    const work = join(t.hermesHome, 'profiles', 'work');
    await mkdir(join(work, 'skills', 'devops', 'deploy'), { recursive: true });
    await mkdir(join(work, 'skills', 'notes'), { recursive: true });
    await mkdir(join(work, 'skills', '.hub', 'cached'), { recursive: true });
    await writeFile(join(work, 'skills', 'devops', 'deploy', 'SKILL.md'), '---\nname: deploy\n---\nDeploy.\n');
    await writeFile(join(work, 'skills', 'notes', 'SKILL.md'), '---\nname: notes\n---\nNotes.\n');
    await writeFile(join(work, 'skills', '.hub', 'cached', 'SKILL.md'), '---\nname: cached\n---\n');
    await writeFile(join(work, 'config.yaml'), 'model: anthropic/claude-sonnet-4.6\nskills:\n  disabled: [notes]\n');
    await writeFile(join(work, '.env'), 'OPENROUTER_API_KEY=sk-or-work\n');
    // Not profiles: a bad name, a file, and one Hermes marked deleted.
    await mkdir(join(t.hermesHome, 'profiles', 'Bad Name'), { recursive: true });
    await writeFile(join(t.hermesHome, 'profiles', 'loose.txt'), 'x');
    await mkdir(join(t.hermesHome, 'profiles', 'gone'), { recursive: true });
    await mkdir(join(t.hermesHome, 'profiles', '.deleted'), { recursive: true });
    await writeFile(join(t.hermesHome, 'profiles', '.deleted', 'gone'), 'deleted\n');

    const r = await t.call('GET', '/api/profiles');
    expect(r.status).toBe(200);
    expect(r.body.active).toBe('default');
    expect(r.body.single_profile_mode).toBe(false);
    expect(r.body.profiles.map((p: { name: string }) => p.name)).toEqual(['default', 'work']);
    const [def, row] = r.body.profiles;
    expect(def).toMatchObject({
      name: 'default',
      is_default: true,
      is_active: true,
      model: 'openai/gpt-5',
      provider: 'openrouter',
      has_env: false,
      skill_count: 0,
    });
    expect(row).toEqual({
      name: 'work',
      path: work,
      is_default: false,
      is_active: false,
      gateway_running: null,
      model: 'anthropic/claude-sonnet-4.6',
      provider: null,
      has_env: true,
      skill_count: 1,
      enabled_skills: 1,
      total_skills: 2,
    });
  });

  it('refuses bad, reserved and taken names', async () => {
    for (const name of ['Bad', 'a b', '../x', '-lead', 'x'.repeat(65), '', 'a.b']) {
      const r = await create({ name });
      expect(r.status, name).toBe(400);
      expect(r.body.error).toBeTruthy();
    }
    expect((await create({ name: 'default' })).body.error).toMatch(/built-in/);
    expect((await create({ name: 'root' })).body.error).toMatch(/reserved/);
    expect((await create({})).status).toBe(400);
    expect((await create({ name: 'ok', base_url: 'ftp://x' })).body.error).toMatch(/http/);
    expect((await create({ name: 'ok', api_key: 'a\nB=1' })).status).toBe(400);
    expect((await create({ name: 'ok' })).status).toBe(200);
    const again = await create({ name: 'ok' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already exists/);
  });

  it("lays a new profile out as Hermes does, seeded with the active profile's model block", async () => {
    const r = await create({ name: 'fresh' });
    expect(r.status).toBe(200);
    expect(r.body.profile).toMatchObject({ name: 'fresh', model: 'openai/gpt-5', provider: 'openrouter', has_env: true, is_active: false });
    const root = join(t.hermesHome, 'profiles', 'fresh');
    for (const dir of ['memories', 'sessions', 'skills', 'skins', 'logs', 'plans', 'workspace', 'cron', 'home'])
      expect((await stat(join(root, dir))).isDirectory()).toBe(true);
    expect(await readFile(join(root, 'config.yaml'), 'utf8')).toBe('model:\n  default: openai/gpt-5 # the main one\n  provider: openrouter\n');
    expect((await stat(join(root, '.env'))).mode & 0o777).toBe(0o600);
    expect(parseDotenv(await readFile(join(root, '.env'), 'utf8'))).toEqual({});
  });

  it('clones config.yaml, .env (0600) and SOUL.md from another profile', async () => {
    const src = join(t.hermesHome, 'profiles', 'src');
    await mkdir(src, { recursive: true });
    const config = '# mine\nmodel:\n  default: qwen3:8b\n  provider: ollama\nterminal:\n  cwd: /tmp # keep\n';
    await writeFile(join(src, 'config.yaml'), config);
    await writeFile(join(src, '.env'), 'OPENAI_API_KEY=sk-src\n', { mode: 0o644 });
    await writeFile(join(src, 'SOUL.md'), 'You are terse.\n');
    await mkdir(join(src, 'memories'), { recursive: true });
    const r = await create({ name: 'copy', clone_from: 'src' });
    expect(r.status).toBe(200);
    const root = join(t.hermesHome, 'profiles', 'copy');
    expect(await readFile(join(root, 'config.yaml'), 'utf8')).toBe(config);
    expect(await readFile(join(root, '.env'), 'utf8')).toBe('OPENAI_API_KEY=sk-src\n');
    expect((await stat(join(root, '.env'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(root, 'SOUL.md'), 'utf8')).toBe('You are terse.\n');
    expect((await create({ name: 'copy2', clone_from: 'nope' })).status).toBe(404);
    // A failed clone leaves no folder behind.
    await expect(stat(join(t.hermesHome, 'profiles', 'copy2'))).rejects.toThrow();
  });

  it("writes a provider key to .env and the endpoint and model to config.yaml in Hermes' format", async () => {
    const r = await create({
      name: 'keyed',
      base_url: 'https://openrouter.ai/api/v1',
      api_key: 'sk-or-new',
      default_model: 'openai/gpt-5-mini',
      model_provider: 'openrouter',
    });
    expect(r.status).toBe(200);
    const root = join(t.hermesHome, 'profiles', 'keyed');
    const config = parse(await readFile(join(root, 'config.yaml'), 'utf8'));
    expect(config.model).toEqual({ default: 'openai/gpt-5-mini', provider: 'openrouter', base_url: 'https://openrouter.ai/api/v1' });
    expect(config.model.api_key).toBeUndefined();
    const env = await readFile(join(root, '.env'), 'utf8');
    expect(parseDotenv(env)).toEqual({ OPENROUTER_API_KEY: 'sk-or-new' });
    expect((await stat(join(root, '.env'))).mode & 0o777).toBe(0o600);
    // The key never comes back in an answer.
    expect(JSON.stringify(r.body)).not.toContain('sk-or-new');
    // A provider without a known variable gets Hermes' generic one.
    await create({ name: 'other', api_key: 'k-1', model_provider: 'somewhere', default_model: 'm' });
    expect(parseDotenv(await readFile(join(t.hermesHome, 'profiles', 'other', '.env'), 'utf8'))).toEqual({ HERMES_API_KEY: 'k-1' });
  });

  it('switches with an HttpOnly cookie that later requests resolve, and refuses unknown profiles', async () => {
    await create({ name: 'work' });
    const r = await switchTo('work');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ active: 'work', is_default: false, default_model: 'openai/gpt-5', default_model_provider: 'openrouter' });
    const header = r.res.headers.get('Set-Cookie')!;
    expect(header).toMatch(/^hermes_profile=work; /);
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Lax/);
    expect(header).toMatch(/Path=\//);
    expect(header).not.toMatch(/Secure/);
    const active = await t.call('GET', '/api/profile/active', undefined, { Cookie: cookieOf(r.res) });
    expect(active.body).toMatchObject({ name: 'work', is_default: false, path: join(t.hermesHome, 'profiles', 'work') });
    expect(typeof active.body.default_workspace).toBe('string');
    expect((await t.call('GET', '/api/profile/active')).body.name).toBe('default');
    expect((await switchTo('missing')).status).toBe(404);
    expect((await switchTo('Bad Name')).status).toBe(400);
    const secure = await t.app.request('https://localhost/api/profile/switch', {
      method: 'POST',
      body: JSON.stringify({ name: 'work' }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(secure.headers.get('Set-Cookie')).toMatch(/; Secure/);
  });

  it("refuses to delete default, and this browser's active profile until it switched back", async () => {
    await create({ name: 'work' });
    const def = await t.call('POST', '/api/profile/delete', { name: 'default' });
    expect(def.status).toBe(400);
    expect(def.body.error).toMatch(/default profile cannot be deleted/);
    const cookie = cookieOf((await switchTo('work')).res);
    const refused = await t.call('POST', '/api/profile/delete', { name: 'work' }, { Cookie: cookie });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/switch to default first/);
    const back = cookieOf((await switchTo('default', cookie)).res);
    const ok = await t.call('POST', '/api/profile/delete', { name: 'work' }, { Cookie: back });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, name: 'work' });
    await expect(stat(join(t.hermesHome, 'profiles', 'work'))).rejects.toThrow();
    expect((await t.call('POST', '/api/profile/delete', { name: 'work' }, { Cookie: back })).status).toBe(404);
    // A browser still holding the deleted profile's cookie falls back to default.
    expect((await t.call('GET', '/api/profile/active', undefined, { Cookie: cookie })).body.name).toBe('default');
  });

  it('records and lists sessions and projects by the browser profile, or all of them', async () => {
    await create({ name: 'work' });
    const work = cookieOf((await switchTo('work')).res);
    const mine = await t.newSession();
    const theirs = (await t.call('POST', '/api/session/new', {}, { Cookie: work })).body.session;
    expect(theirs.profile).toBe('work');
    await t.call('POST', '/api/projects/create', { name: 'Work project' }, { Cookie: work });
    await t.call('POST', '/api/projects/create', { name: 'Home project' });

    const listDefault = await t.call('GET', '/api/sessions');
    expect(listDefault.body.sessions.map((s: { session_id: string }) => s.session_id)).toEqual([mine]);
    expect(listDefault.body).toMatchObject({ total: 1, all_profiles: false, active_profile: 'default', other_profile_count: 1 });
    const listWork = await t.call('GET', '/api/sessions?limit=50', undefined, { Cookie: work });
    expect(listWork.body.sessions.map((s: { session_id: string }) => s.session_id)).toEqual([theirs.session_id]);
    expect(listWork.body).toMatchObject({ total: 1, active_profile: 'work', other_profile_count: 1 });
    const all = await t.call('GET', '/api/sessions?all_profiles=1', undefined, { Cookie: work });
    expect(all.body.sessions).toHaveLength(2);
    expect(all.body).toMatchObject({ all_profiles: true, active_profile: 'work', other_profile_count: 0 });
    // Each view has its own ETag: a cached default list is never a 304 for the work one.
    expect(listDefault.res.headers.get('ETag')).not.toBe((await t.call('GET', '/api/sessions', undefined, { Cookie: work })).res.headers.get('ETag'));

    const projects = await t.call('GET', '/api/projects', undefined, { Cookie: work });
    expect(projects.body.projects.map((p: { name: string }) => p.name)).toEqual(['Work project']);
    expect(projects.body).toMatchObject({ all_profiles: false, active_profile: 'work', other_profile_count: 1 });
    const allProjects = await t.call('GET', '/api/projects?all_profiles=1');
    expect(allProjects.body.projects).toHaveLength(2);
  });

  it('counts rows stored without a profile as default', async () => {
    const id = await t.newSession();
    await t.deps.sessions.update(id, { profile: null });
    expect((await t.call('GET', '/api/sessions')).body.sessions.map((s: { session_id: string }) => s.session_id)).toEqual([id]);
  });
});

describe('profile cookie with a password set', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp();
    await t.setPassword('correct horse');
  });
  afterEach(async () => {
    await t.close();
  });

  it('is bound to the sign-in, and a forged or foreign one is ignored', async () => {
    const { cookie } = await t.signIn('correct horse');
    await t.call('POST', '/api/profile/create', { name: 'work' }, { Cookie: cookie });
    const r = await t.call('POST', '/api/profile/switch', { name: 'work' }, { Cookie: cookie });
    const profile = cookieOf(r.res);
    expect(profile).toMatch(/^hermes_profile=work\.[0-9a-f]{64}$/);
    const active = (c: string) => t.call('GET', '/api/profile/active', undefined, { Cookie: c }).then((x) => x.body.name);
    expect(await active(`${cookie}; ${profile}`)).toBe('work');
    expect(await active(`${cookie}; hermes_profile=work`)).toBe('default');
    expect(await active(`${cookie}; hermes_profile=work.${'0'.repeat(64)}`)).toBe('default');
    // Another sign-in cannot reuse this browser's signed value.
    const other = (await t.signIn('correct horse')).cookie;
    expect(await active(`${other}; ${profile}`)).toBe('default');
  });
});

describe('profiles on Workers', () => {
  it('has one profile and says so when asked to create or delete one', async () => {
    const homes = new DocumentHermesHomes('/hermes', {} as never, () => ({ read: async () => null, write: async () => {} }) as never);
    expect(homes.multiProfile).toBe(false);
    expect(await homes.list()).toEqual(['default']);
    await expect(homes.create('work')).rejects.toThrow(NotAvailable);
    await expect(homes.remove('work')).rejects.toThrow(/one profile/);
  });
});
