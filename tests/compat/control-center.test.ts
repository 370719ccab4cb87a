import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/**
 * The incumbent's Control Center clients (memory, skills, profiles, tasks, logs, MCP, insights,
 * providers, projects): its request fields, with extras it or its scripts send, and the answer
 * fields, codes and texts they read.
 */
let t: TestApp;

beforeAll(async () => {
  t = await makeTestApp({ configYaml: 'model:\n  provider: openrouter\n  default: a/b\n' });
});

afterAll(async () => {
  await t.close();
});

/** A field the incumbent's clients send that this server does not use: never a 400. */
const EXTRA = { _client: 'hermes-webui-py', ts: 1 };
const post = (path: string, body: Record<string, unknown>) => t.call('POST', path, { ...EXTRA, ...body });

describe('memory', () => {
  it('GET answers {memory, user, soul, *_path, *_mtime}; write answers {ok, section, path}', async () => {
    const w = await post('/api/memory/write', { section: 'memory', content: 'remember this' });
    expect(w.status).toBe(200);
    expect(w.body).toMatchObject({ ok: true, section: 'memory' });
    expect(typeof w.body.path).toBe('string');
    const r = await t.call('GET', '/api/memory');
    expect(r.body).toMatchObject({ memory: expect.stringContaining('remember this'), user: expect.any(String), soul: expect.any(String) });
    for (const k of ['memory_path', 'user_path', 'soul_path']) expect(typeof r.body[k]).toBe('string');
    for (const k of ['memory_mtime', 'user_mtime', 'soul_mtime']) expect(k in r.body).toBe(true);
  });

  it('answers the incumbent text for an unknown section', async () => {
    const r = await post('/api/memory/write', { section: 'diary', content: 'x' });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('section must be "memory", "user", or "soul"');
  });
});

describe('skills', () => {
  it('save {name, content, category} → {ok, name, path}; list, toggle {ok, name, enabled}, delete {ok, name}', async () => {
    const content = '---\nname: compat-skill\ndescription: A compat skill\n---\nDo the thing.\n';
    const saved = await post('/api/skills/save', { name: 'compat-skill', content, category: 'tools' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ ok: true, name: 'compat-skill' });
    expect(typeof saved.body.path).toBe('string');
    const list = await t.call('GET', '/api/skills');
    expect(list.body.skills).toContainEqual(expect.objectContaining({ name: 'compat-skill', description: 'A compat skill', category: 'tools', enabled: true }));
    const off = await post('/api/skills/toggle', { name: 'compat-skill', enabled: false });
    expect(off.body).toMatchObject({ ok: true, name: 'compat-skill', enabled: false });
    const unknown = await post('/api/skills/toggle', { name: 'no-such-skill', enabled: true });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("Skill 'no-such-skill' not found");
    const content2 = await t.call('GET', '/api/skills/content?name=compat-skill');
    expect(content2.body.content).toContain('Do the thing.');
    expect((await post('/api/skills/delete', { name: 'compat-skill' })).body).toMatchObject({ ok: true, name: 'compat-skill' });
    const gone = await post('/api/skills/delete', { name: 'compat-skill' });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('Skill not found');
  });
});

describe('scheduled tasks', () => {
  it('create {prompt, schedule} → {ok, job}; update, pause, resume → {ok, job}; delete → {ok, job_id}', async () => {
    const created = await post('/api/crons/create', { prompt: 'say hi', schedule: 'every 2h', name: 'Compat', deliver: 'local', toast_notifications: true });
    expect(created.status).toBe(200);
    expect(created.body.ok).toBe(true);
    const id = created.body.job.id;
    expect(created.body.job).toMatchObject({ id, name: 'Compat', prompt: 'say hi' });
    expect((await t.call('GET', '/api/crons')).body.jobs.map((j: { id: string }) => j.id)).toContain(id);
    expect((await post('/api/crons/update', { job_id: id, name: 'Renamed' })).body).toMatchObject({ ok: true, job: { id, name: 'Renamed' } });
    expect((await post('/api/crons/pause', { job_id: id, reason: 'compat' })).body).toMatchObject({ ok: true, job: { id } });
    expect((await post('/api/crons/resume', { job_id: id })).body).toMatchObject({ ok: true, job: { id } });
    expect((await post('/api/crons/delete', { job_id: id })).body).toEqual({ ok: true, job_id: id });
  });

  it('answers 404 "Job not found" for an unknown job and 400 for a bad schedule', async () => {
    for (const op of ['update', 'delete', 'run', 'pause', 'resume']) {
      const r = await post(`/api/crons/${op}`, { job_id: 'nosuchjob' });
      expect(r.status, op).toBe(404);
      expect(r.body.error, op).toBe('Job not found');
    }
    expect((await post('/api/crons/create', { prompt: 'x', schedule: 'whenever you like' })).status).toBe(400);
  });
});

describe('logs', () => {
  it('answers {file, tail, lines, truncated, total_bytes, mtime, hint}; 400 "Unknown log file"', async () => {
    await mkdir(join(t.hermesHome, 'logs'), { recursive: true });
    await writeFile(join(t.hermesHome, 'logs', 'agent.log'), 'one\ntwo\n');
    const r = await t.call('GET', '/api/logs?file=agent&tail=100');
    expect(r.body).toMatchObject({ file: 'agent', tail: 100, lines: ['one', 'two'], truncated: false, total_bytes: 8, hint: '' });
    expect(typeof r.body.mtime).toBe('number');
    const bad = await t.call('GET', '/api/logs?file=secrets');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'Unknown log file' });
  });
});

describe('MCP', () => {
  it('servers answers {servers, toggle_supported, reload_required}; tools answers {tools, total, …}', async () => {
    const servers = await t.call('GET', '/api/mcp/servers');
    expect(servers.status).toBe(200);
    expect(Array.isArray(servers.body.servers)).toBe(true);
    expect(typeof servers.body.toggle_supported).toBe('boolean');
    expect('reload_required' in servers.body).toBe(true);
    const tools = await t.call('GET', '/api/mcp/tools');
    expect(tools.status).toBe(200);
    expect(tools.body).toMatchObject({ tools: expect.any(Array), total: expect.any(Number) });
    for (const k of ['source', 'inventory_scope', 'unavailable_servers']) expect(k in tools.body, k).toBe(true);
  });

  it('PUT creates a stdio server, PATCH toggles it, DELETE removes it', async () => {
    const put = await t.call('PUT', '/api/mcp/servers/compat', { command: 'node', args: ['-e', '0'], env: {}, timeout: 30, ...EXTRA });
    expect(put.status).toBe(200);
    expect(put.body.ok).toBe(true);
    expect(await readFile(join(t.hermesHome, 'config.yaml'), 'utf8')).toContain('compat');
    expect((await t.call('PATCH', '/api/mcp/servers/compat', { enabled: false })).body.ok).toBe(true);
    expect((await t.call('DELETE', '/api/mcp/servers/compat')).body.ok).toBe(true);
  });
});

describe('insights', () => {
  it('answers the incumbent totals and series for ?days=', async () => {
    const r = await t.call('GET', '/api/insights?days=7');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ period_days: 7, total_sessions: expect.any(Number), total_messages: expect.any(Number) });
    // As the incumbent: no cache reads, no percentage (null), not 0.
    expect(r.body.total_cache_hit_percent).toBeNull();
    for (const k of ['total_input_tokens', 'total_output_tokens', 'total_cache_read_tokens', 'total_tokens', 'total_cost'])
      expect(typeof r.body[k], k).toBe('number');
    for (const k of ['models', 'daily_tokens', 'activity_by_day']) expect(Array.isArray(r.body[k]), k).toBe(true);
    expect(r.body.activity_by_hour).toHaveLength(24);
  });
});

describe('profiles', () => {
  it('lists profiles with the active one; profile/active answers its name', async () => {
    const r = await t.call('GET', '/api/profiles');
    expect(r.status).toBe(200);
    expect(r.body.profiles).toContainEqual(expect.objectContaining({ name: 'default' }));
    const active = await t.call('GET', '/api/profile/active');
    expect(active.body).toMatchObject({ name: 'default' });
  });
});

describe('providers', () => {
  it('POST {provider, api_key} answers {ok, provider, display_name, action}; an empty key removes it', async () => {
    const saved = await post('/api/providers', { provider: 'OpenAI', api_key: 'sk-compat-0123456789abcdef' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ ok: true, provider: 'openai', action: 'updated' });
    expect(typeof saved.body.display_name).toBe('string');
    expect(JSON.stringify(saved.body)).not.toContain('0123456789abcdef');
    const list = await t.call('GET', '/api/providers');
    expect(list.body.providers).toContainEqual(expect.objectContaining({ id: 'openai', has_key: true, configurable: true, display_name: expect.any(String) }));
    expect((await post('/api/providers', { provider: 'openai', api_key: '' })).body).toMatchObject({ ok: true, provider: 'openai', action: 'removed' });
    expect((await post('/api/providers', { api_key: 'x' })).body).toEqual({ error: 'provider is required' });
    expect((await post('/api/providers/delete', { provider: 'openrouter' })).body).toMatchObject({ ok: true, provider: 'openrouter' });
  });
});

describe('projects', () => {
  it('create {name, color, profile} → {ok, project}; list fields; the incumbent texts', async () => {
    const created = await post('/api/projects/create', { name: 'Compat', color: '#abc', profile: 'default' });
    expect(created.body).toMatchObject({ ok: true, project: { name: 'Compat', color: '#abc', profile: 'default' } });
    expect(typeof created.body.project.project_id).toBe('string');
    expect(typeof created.body.project.created_at).toBe('number');
    const list = await t.call('GET', '/api/projects');
    expect(list.body).toMatchObject({ all_profiles: false, active_profile: 'default' });
    expect(typeof list.body.other_profile_count).toBe('number');
    expect((await post('/api/projects/create', { name: '' })).body).toEqual({ error: 'name required' });
    expect((await post('/api/projects/create', { name: 'x', color: 'red' })).body).toEqual({ error: 'Invalid color format' });
    expect((await post('/api/projects/create', { name: 'x', profile: 'nobody' })).body).toEqual({ error: 'invalid profile' });
    const gone = await post('/api/projects/delete', { project_id: 'nosuchproject' });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'Project not found' });
  });
});
