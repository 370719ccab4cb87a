import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServerToExit, startServer, type RunningServer } from '../helpers/server.js';
import { writeIncumbentStateDir } from '../fixtures/incumbent-state.js';

/** The real server, started as `npm start` starts it, driven over HTTP with fetch. */
describe('end to end: the Node server', () => {
  let home: string;
  let server: RunningServer;
  const env = () => ({ HERMES_HOME: join(home, '.hermes'), HOME: home });
  const api = async (path: string, body?: unknown) => {
    const res = await fetch(
      server.url + path,
      body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } },
    );
    return { status: res.status, body: (await res.json()) as any, res };
  };

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'hermes-e2e-'));
    server = await startServer(env());
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await rm(home, { recursive: true, force: true });
  });

  it('prints one startup line with the URL, state dir and storage', () => {
    const line = server
      .output()
      .split('\n')
      .find((l) => l.includes('listening on'))!;
    expect(line).toMatch(/^Hermes WebUI \S+ listening on http:\/\/127\.0\.0\.1:\d+ · state dir .*\/\.hermes\/webui · storage fs$/);
  });

  it('manages sessions, projects, workspaces and files over HTTP, persisting to the state dir', async () => {
    expect((await api('/health')).body).toMatchObject({ status: 'ok', sessions: 0, storage: 'fs' });

    const created = await api('/api/session/new', {});
    expect(created.status).toBe(200);
    const sid = created.body.session.session_id;
    expect(created.body.session.workspace).toBe(join(home, '.hermes', 'webui', 'workspace'));

    const project = await api('/api/projects/create', { name: 'Work', color: '#abc' });
    expect(project.status).toBe(200);
    const moved = await api('/api/session/move', { session_id: sid, project_id: project.body.project.project_id });
    expect(moved.body.session.project_id).toBe(project.body.project.project_id);
    expect((await api('/api/session/rename', { session_id: sid, title: 'End to end' })).body.session.title).toBe('End to end');

    const list = await api('/api/sessions');
    expect(list.body.sessions.map((s: { title: string }) => s.title)).toEqual(['End to end']);
    expect(list.res.headers.get('cache-control')).toBe('no-store');

    // Files in the session's workspace.
    expect((await api('/api/file/create', { session_id: sid, path: 'notes/todo.md', content: '# Todo\n- ship\n' })).status).toBe(200);
    const listing = await api(`/api/list?session_id=${sid}&path=notes`);
    expect(listing.body.entries.map((e: { name: string }) => e.name)).toEqual(['todo.md']);
    const file = await api(`/api/file?session_id=${sid}&path=notes/todo.md`);
    expect(file.body).toMatchObject({ path: 'notes/todo.md', content: '# Todo\n- ship\n', lines: 3 });
    const outside = await api(`/api/file?session_id=${sid}&path=../../../../etc/passwd`);
    expect(outside.status).toBe(403);
    expect(outside.body.error).toMatch(/outside the workspace/);

    // An upload lands under attachments/<sid>/.
    const form = new FormData();
    form.set('session_id', sid);
    form.set('file', new Blob(['col1,col2\n1,2\n'], { type: 'text/csv' }), 'data set.csv');
    const up = await fetch(server.url + '/api/upload', { method: 'POST', body: form });
    const upBody = (await up.json()) as { filename: string; path: string; size: number };
    expect(up.status).toBe(200);
    expect(upBody).toMatchObject({ filename: 'data_set.csv', size: 14, mime: 'text/csv', is_image: false });
    expect(upBody.path).toBe(join(home, '.hermes', 'webui', 'attachments', sid, 'data_set.csv'));
    expect(await readFile(upBody.path, 'utf8')).toBe('col1,col2\n1,2\n');

    // The session file is the incumbent's format.
    const onDisk = JSON.parse(await readFile(join(home, '.hermes', 'webui', 'sessions', `${sid}.json`), 'utf8'));
    expect(onDisk).toMatchObject({ session_id: sid, title: 'End to end', message_count: 0, messages: [] });

    // Bad input is a JSON error, never a crash.
    const bad = await fetch(server.url + '/api/session/rename', { method: 'POST', body: '{not json', headers: { 'Content-Type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'Request body is not valid JSON' });
    const missing = await api('/api/nope');
    expect(missing).toMatchObject({ status: 404, body: { error: 'not found' } });

    // One JSON log line per request.
    const logLines = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{"ts"'));
    const rename = logLines.map((l) => JSON.parse(l)).find((r) => r.path === '/api/session/rename' && r.status === 200);
    expect(rename).toMatchObject({ method: 'POST', status: 200 });
    expect(typeof rename.ms).toBe('number');
  });

  it('serves the app shell for / and /session/<id>', async () => {
    for (const path of ['/', '/session/abc123']) {
      const res = await fetch(server.url + path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('<html');
    }
  });

  it('answers a client that leaves mid-body with a quiet 400, logs no error, and keeps serving', async () => {
    const before = server.output().length;
    const sid = (await api('/api/sessions')).body.sessions[0].session_id;
    for (const path of ['/api/session/new', '/api/session/rename', '/api/file/save', '/api/chat/start', '/api/settings']) {
      const socket = connect({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.on('error', () => {});
      // Promises 1000 bytes, sends 10, hangs up.
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"session_`);
      await new Promise((r) => setTimeout(r, 50));
      socket.destroy();
    }
    // Each request is logged once it settles.
    const deadline = Date.now() + 5000;
    while (
      (
        server
          .output()
          .slice(before)
          .match(/"method":"POST"/g) ?? []
      ).length < 5 &&
      Date.now() < deadline
    )
      await new Promise((r) => setTimeout(r, 50));
    const log = server.output().slice(before);
    expect(log).not.toMatch(/unhandled|"level":"error"|\n\s+at /);
    const lines = log
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.method === 'POST').map((l) => l.status)).toEqual([400, 400, 400, 400, 400]);
    expect((await api(`/api/session?session_id=${sid}`)).status).toBe(200);
  });

  it('shuts down gracefully on SIGTERM, writes the index, and keeps everything for the next start', async () => {
    const code = await server.stop('SIGTERM');
    expect(code).toBe(0);
    const index = JSON.parse(await readFile(join(home, '.hermes', 'webui', 'sessions', '_index.json'), 'utf8'));
    expect(index.map((r: { title: string }) => r.title)).toEqual(['End to end']);
    server = await startServer(env());
    const list = await api('/api/sessions');
    expect(list.body.sessions.map((s: { title: string }) => s.title)).toEqual(['End to end']);
  });
});

describe('end to end: switching from the incumbent', () => {
  it('opens a state dir the Python hermes-webui wrote and keeps unknown keys on rename', async () => {
    const home = await mkdtemp(join(tmpdir(), 'hermes-e2e-inc-'));
    const stateDir = join(home, 'state');
    await writeIncumbentStateDir(stateDir, { withIndex: true });
    const server = await startServer({ HERMES_WEBUI_STATE_DIR: stateDir, HOME: home });
    try {
      const list = (await (await fetch(server.url + '/api/sessions')).json()) as { sessions: Array<{ session_id: string; message_count: number }> };
      expect(list.sessions).toEqual([expect.objectContaining({ session_id: 'a1b2c3d4e5f6', message_count: 4 })]);
      const res = await fetch(server.url + '/api/session/rename', {
        method: 'POST',
        body: JSON.stringify({ session_id: 'a1b2c3d4e5f6', title: 'Renamed here' }),
      });
      expect(res.status).toBe(200);
      const onDisk = JSON.parse(await readFile(join(stateDir, 'sessions', 'a1b2c3d4e5f6.json'), 'utf8'));
      expect(onDisk).toMatchObject({ title: 'Renamed here', user_id: 'local', last_usage: { prompt_tokens: 1520 }, context_messages: [] });
    } finally {
      await server.stop('SIGKILL');
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('end to end: refusing to start', () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'hermes-e2e-bad-'));
  });
  afterAll(async () => rm(home, { recursive: true, force: true }));

  it('refuses a non-loopback host and says why', async () => {
    const r = await runServerToExit({ HOME: home, HERMES_WEBUI_HOST: '0.0.0.0' });
    expect(r.code).toBe(1);
    expect(r.output).toContain('refusing to listen on 0.0.0.0');
    expect(r.output).toContain('SSH tunnel');
  });

  it('fails fast on invalid configuration with a readable message', async () => {
    const r = await runServerToExit({ HOME: home, HERMES_WEBUI_PORT: 'abc', HERMES_WEBUI_STORAGE: 'redis' });
    expect(r.code).toBe(1);
    expect(r.output).toContain('Invalid configuration');
    expect(r.output).toContain('HERMES_WEBUI_PORT: must be a number');
    expect(r.output).toContain('HERMES_WEBUI_STORAGE: must be "fs", "memory" or "postgres"');
    expect(r.output).not.toMatch(/at .*\.js:\d+/);
  });

  it('says so when the port is taken', async () => {
    const first = await startServer({ HOME: home });
    try {
      const port = new URL(first.url).port;
      const r = await runServerToExit({ HOME: home, HERMES_WEBUI_PORT: port });
      expect(r.code).toBe(1);
      expect(r.output).toContain(`port ${port} on 127.0.0.1 is already in use`);
    } finally {
      await first.stop();
    }
  });

  it('memory storage writes no session files', async () => {
    const s = await startServer({ HOME: home, HERMES_WEBUI_STORAGE: 'memory', HERMES_WEBUI_STATE_DIR: join(home, 'mem-state') });
    try {
      expect(s.output()).toContain('storage memory');
      const res = await fetch(s.url + '/api/session/new', { method: 'POST', body: '{}' });
      expect(res.status).toBe(200);
      const files = await readdir(join(home, 'mem-state')).catch(() => []);
      expect(files).not.toContain('sessions');
    } finally {
      await s.stop();
    }
  });
});
