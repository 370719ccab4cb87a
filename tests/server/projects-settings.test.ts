import { mkdir, realpath, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

describe.each(['memory', 'fs'] as const)('project routes (%s storage)', (storage) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp({ storage });
  });
  afterEach(async () => {
    await t.close();
  });

  const create = (body: unknown) => t.call('POST', '/api/projects/create', body);

  describe('GET /api/projects', () => {
    it('starts empty, with the profile fields', async () => {
      const r = await t.call('GET', '/api/projects');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ projects: [], all_profiles: false, active_profile: 'default', other_profile_count: 0 });
    });

    it('lists projects in creation order', async () => {
      const a = (await create({ name: 'First' })).body.project;
      const b = (await create({ name: 'Second', color: '#123456' })).body.project;
      const r = await t.call('GET', '/api/projects');
      expect(r.status).toBe(200);
      expect(r.body.projects).toEqual([a, b]);
    });
  });

  describe('POST /api/projects/create', () => {
    it('creates a project with an id, trimmed name, color and creation time', async () => {
      const before = Date.now() / 1000;
      const r = await create({ name: '  Work  ', color: '#abc' });
      expect(r.status).toBe(200);
      expect(r.body.ok).toBe(true);
      const p = r.body.project;
      expect(p.project_id).toMatch(/^[0-9a-f]{12}$/);
      expect(p).toMatchObject({ name: 'Work', color: '#abc', profile: 'default' });
      expect(p.created_at).toBeGreaterThanOrEqual(before - 1);
      expect(p.created_at).toBeLessThanOrEqual(Date.now() / 1000 + 1);
    });

    it('color is optional and may be null', async () => {
      expect((await create({ name: 'A' })).body.project.color).toBeNull();
      expect((await create({ name: 'B', color: null })).body.project.color).toBeNull();
    });

    it.each(['#abc', '#ABCD', '#a1b2c3', '#a1b2c3d4'])('accepts color %s', async (color) => {
      const r = await create({ name: 'P', color });
      expect(r.status).toBe(200);
      expect(r.body.project.color).toBe(color);
    });

    it.each(['red', '#ab', '#abcdefabc', 'abc', '#ggg', '#12 34'])('refuses color %j', async (color) => {
      const r = await create({ name: 'P', color });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('Invalid color format');
      expect((await t.call('GET', '/api/projects')).body.projects).toEqual([]);
    });

    it('accepts a 128-character name and refuses 129', async () => {
      const ok = await create({ name: 'n'.repeat(128) });
      expect(ok.status).toBe(200);
      expect(ok.body.project.name).toBe('n'.repeat(128));
      const long = await create({ name: 'n'.repeat(129) });
      expect(long.status).toBe(400);
      expect(long.body.error).toContain('name must be at most 128 characters');
    });

    it('refuses an empty, blank or missing name', async () => {
      for (const body of [{ name: '' }, { name: '   ' }]) {
        const r = await create(body);
        expect(r.status).toBe(400);
        expect(r.body.error).toBe('name required');
      }
      const missing = await create({});
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('name required');
      expect((await t.call('GET', '/api/projects')).body.projects).toEqual([]);
    });
  });

  describe('POST /api/projects/rename', () => {
    it('renames and recolours; each field is optional', async () => {
      const p = (await create({ name: 'Old', color: '#111' })).body.project;
      let r = await t.call('POST', '/api/projects/rename', { project_id: p.project_id, name: ' New ' });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true, project: { ...p, name: 'New' } });

      r = await t.call('POST', '/api/projects/rename', { project_id: p.project_id, color: '#222222' });
      expect(r.status).toBe(200);
      expect(r.body.project).toMatchObject({ name: 'New', color: '#222222' });

      r = await t.call('POST', '/api/projects/rename', { project_id: p.project_id, color: null });
      expect(r.body.project.color).toBeNull();

      const list = await t.call('GET', '/api/projects');
      expect(list.body.projects).toEqual([{ ...p, name: 'New', color: null }]);
    });

    it('404s an unknown project', async () => {
      const r = await t.call('POST', '/api/projects/rename', { project_id: 'nope', name: 'x' });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Project not found' });
    });

    it('validates the new name and color', async () => {
      const p = (await create({ name: 'Old' })).body.project;
      let r = await t.call('POST', '/api/projects/rename', { project_id: p.project_id, name: 'n'.repeat(129) });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('name');
      r = await t.call('POST', '/api/projects/rename', { project_id: p.project_id, color: 'blue' });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('color');
      r = await t.call('POST', '/api/projects/rename', { name: 'x' });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('project_id is required');
      expect((await t.call('GET', '/api/projects')).body.projects[0].name).toBe('Old');
    });
  });

  describe('POST /api/projects/delete', () => {
    it('deletes the project and unassigns its sessions (others untouched)', async () => {
      const p = (await create({ name: 'Doomed' })).body.project;
      const q = (await create({ name: 'Kept' })).body.project;
      const inP1 = await t.newSession({ project_id: p.project_id });
      const inP2 = await t.newSession();
      await t.call('POST', '/api/session/move', { session_id: inP2, project_id: p.project_id });
      const inQ = await t.newSession({ project_id: q.project_id });
      const loose = await t.newSession();

      const r = await t.call('POST', '/api/projects/delete', { project_id: p.project_id });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true, unassigned_sessions: 2 });

      for (const id of [inP1, inP2, loose]) {
        const g = await t.call('GET', `/api/session?session_id=${id}`);
        expect(g.status).toBe(200);
        expect(g.body.session.project_id).toBeNull();
      }
      expect((await t.call('GET', `/api/session?session_id=${inQ}`)).body.session.project_id).toBe(q.project_id);
      const list = await t.call('GET', '/api/sessions');
      expect(list.body.total).toBe(4);
      expect(list.body.sessions.filter((s: any) => s.project_id === p.project_id)).toEqual([]);
      expect((await t.call('GET', '/api/projects')).body.projects).toEqual([q]);
    });

    it('404s an unknown project (also when deleted twice)', async () => {
      const p = (await create({ name: 'Once' })).body.project;
      expect((await t.call('POST', '/api/projects/delete', { project_id: p.project_id })).status).toBe(200);
      const again = await t.call('POST', '/api/projects/delete', { project_id: p.project_id });
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ error: 'Project not found' });
    });

    it('400s a missing project_id', async () => {
      const r = await t.call('POST', '/api/projects/delete', {});
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('project_id is required');
    });
  });
});

describe.each(['memory', 'fs'] as const)('settings routes (%s storage)', (storage) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp({ storage });
  });
  afterEach(async () => {
    await t.close();
  });

  describe('GET /api/settings', () => {
    it('returns the defaults, the server default workspace and version, and no secrets', async () => {
      const r = await t.call('GET', '/api/settings');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        default_workspace: t.workspace,
        onboarding_completed: false,
        send_key: 'enter',
        show_token_usage: false,
        show_tps: false,
        show_thinking: true,
        theme: 'dark',
        skin: 'default',
        font_size: 'default',
        language: 'auto',
        bot_name: 'Hermes',
        sound_enabled: false,
        notifications_enabled: false,
        sidebar_density: 'compact',
        pinned_sessions_limit: 3,
        auto_scroll_follow: true,
        render_user_markdown: false,
        worklog_details_expanded_default: false,
        hide_empty_state_suggestions: false,
        large_text_paste_as_attachment: true,
        session_jump_buttons: false,
        rtl: false,
        tts_engine: 'browser',
        tts_voice: '',
        tts_rate: 1,
        tts_pitch: 1,
        default_message_mode: 'steer',
        check_for_updates: true,
        show_cli_sessions: false,
        show_cron_sessions: false,
        api_redact_enabled: true,
        webui_version: 'test',
        auth_enabled: false,
        password_auth_enabled: false,
        password_env_var: false,
        // The incumbent's passkey flags (no passkeys here).
        passkeys_enabled: false,
        passwordless_enabled: false,
        features: { files: true, uploads: true, terminal: true },
        // HERMES_WEBUI_CHAT_BACKEND unset: a choice, the gateway's address its default.
        chat_backend: 'builtin',
        gateway_base_url: 'http://127.0.0.1:8642',
        chat_backend_fixed: false,
      });
      expect(r.res.headers.get('Cache-Control')).toBe('no-store');
    });

    it('never returns password_hash, even when it is stored', async () => {
      await t.deps.settings.write({ theme: 'light' });
      await t.setPassword('correct horse');
      const hash = (await t.deps.settings.read()).password_hash as string;
      const { cookie } = await t.signIn('correct horse');
      const r = await t.call('GET', '/api/settings', undefined, { Cookie: cookie });
      expect(r.status).toBe(200);
      expect(r.body.auth_enabled).toBe(true);
      expect(r.body.theme).toBe('light');
      expect(r.body).not.toHaveProperty('password_hash');
      const text = await r.res.text();
      expect(text).not.toContain(hash.split('$')[3]);
      expect(text).not.toContain('password_hash');
    });

    it('shows stored keys it does not know as stored', async () => {
      await t.deps.settings.write({ future_setting: { on: true } });
      const r = await t.call('GET', '/api/settings');
      expect(r.body.future_setting).toEqual({ on: true });
      expect(r.body.theme).toBe('dark');
    });
  });

  describe('POST /api/settings', () => {
    it('applies a partial update, persists it and keeps other stored keys', async () => {
      await t.deps.settings.write({ sync_to_insights: 'keep-me', future_setting: 7 });
      const r = await t.call('POST', '/api/settings', { theme: 'light', pinned_sessions_limit: 5 });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ theme: 'light', pinned_sessions_limit: 5, send_key: 'enter', webui_version: 'test', auth_enabled: false });
      expect(r.body).not.toHaveProperty('password_hash');

      const second = await t.call('POST', '/api/settings', { send_key: 'ctrl+enter' });
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ theme: 'light', send_key: 'ctrl+enter', pinned_sessions_limit: 5 });

      const g = await t.call('GET', '/api/settings');
      expect(g.body).toMatchObject({ theme: 'light', send_key: 'ctrl+enter', pinned_sessions_limit: 5, bot_name: 'Hermes', future_setting: 7 });

      const stored = await t.deps.settings.read();
      expect(stored).toEqual({ sync_to_insights: 'keep-me', future_setting: 7, theme: 'light', pinned_sessions_limit: 5, send_key: 'ctrl+enter' });
    });

    it('keeps every change of quick saves that overlap (switches flipped one after another in the dialog)', async () => {
      const patches = [
        { sidebar_density: 'detailed' },
        { render_user_markdown: true },
        { session_jump_buttons: true },
        { show_tps: true },
        { auto_scroll_follow: false },
      ];
      const answers = await Promise.all(patches.map((p) => t.call('POST', '/api/settings', p)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      expect(await t.deps.settings.read()).toEqual(Object.assign({}, ...patches));
    });

    it('an empty body changes nothing', async () => {
      const r = await t.call('POST', '/api/settings', {});
      expect(r.status).toBe(200);
      expect(r.body.theme).toBe('dark');
      expect(await t.deps.settings.read()).toEqual({});
    });

    it('ignores an unknown key (as the incumbent does): the rest is stored, the key is not', async () => {
      const r = await t.call('POST', '/api/settings', { theme: 'light', not_a_setting: true });
      expect(r.status).toBe(200);
      expect(r.body.ignored_keys).toEqual(['not_a_setting']);
      expect((await t.call('GET', '/api/settings')).body.theme).toBe('light');
      expect(await t.deps.settings.read()).toEqual({ theme: 'light' });
    });

    it('refuses to set password_hash through the API', async () => {
      const r = await t.call('POST', '/api/settings', { password_hash: 'x' });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('password_hash');
      expect(await t.deps.settings.read()).toEqual({});
    });

    it.each([
      [{ theme: 'neon' }, 'theme'],
      [{ send_key: 'space' }, 'send_key'],
      [{ font_size: 'huge' }, 'font_size'],
      [{ default_message_mode: 'shout' }, 'default_message_mode'],
      [{ pinned_sessions_limit: '3' }, 'pinned_sessions_limit'],
      [{ pinned_sessions_limit: 101 }, 'pinned_sessions_limit'],
      [{ pinned_sessions_limit: 1.5 }, 'pinned_sessions_limit'],
      [{ show_tps: 'yes' }, 'show_tps'],
      [{ bot_name: '   ' }, 'bot_name'],
    ])('refuses a bad value %j with 400 naming the key', async (body, key) => {
      const r = await t.call('POST', '/api/settings', body);
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(key);
      expect(await t.deps.settings.read()).toEqual({});
    });

    it('default_workspace: an existing folder is stored canonicalised', async () => {
      const ws = join(t.dir, 'ws');
      await mkdir(ws);
      const r = await t.call('POST', '/api/settings', { default_workspace: ws + '/' });
      expect(r.status).toBe(200);
      expect(r.body.default_workspace).toBe(await realpath(ws));
      expect((await t.call('GET', '/api/settings')).body.default_workspace).toBe(await realpath(ws));
      // New sessions then start there.
      const s = await t.call('POST', '/api/session/new', {});
      expect(s.body.session.workspace).toBe(await realpath(ws));
    });

    it('default_workspace: a missing folder is created', async () => {
      const ws = join(t.dir, 'new', 'nested');
      const r = await t.call('POST', '/api/settings', { default_workspace: ws });
      expect(r.status).toBe(200);
      expect(r.body.default_workspace).toBe(await realpath(ws));
      expect((await stat(ws)).isDirectory()).toBe(true);
    });

    it('default_workspace: refuses relative, empty, system and non-folder paths', async () => {
      const file = join(t.dir, 'a-file');
      await writeFile(file, 'x');
      const cases: Array<[unknown, number, string]> = [
        ['relative/dir', 400, 'absolute'],
        ['', 400, 'default_workspace'],
        ['/etc', 403, 'system directory'],
        [file, 400, 'not a directory'],
        [join(file, 'below'), 400, 'not a directory'],
      ];
      for (const [value, status, message] of cases) {
        const r = await t.call('POST', '/api/settings', { default_workspace: value });
        expect(r.status, String(value)).toBe(status);
        expect(r.body.error).toContain(message);
      }
      expect((await t.call('GET', '/api/settings')).body.default_workspace).toBe(t.workspace);
      expect(await t.deps.settings.read()).toEqual({});
      expect(t.logger.errors).toEqual([]);
    });
  });
});
