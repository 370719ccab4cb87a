import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

/** Two apps on one database (two instances) through the production composition root: the state stores are shared. */
describe('the app’s state on Postgres, two instances', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    // The second app shares the first one's database: it closes first, the first drops it.
    for (const t of apps.reverse()) await t.close();
    apps.length = 0;
  });

  it('settings, projects, workspaces, the VAPID key and a sign-in made on one are the other’s', async () => {
    const a = await makeTestApp({ storage: 'postgres' });
    apps.push(a);
    const b = await makeTestApp({ storage: 'postgres', databaseUrl: a.databaseUrl! });
    apps.push(b);

    // Both ask for the push key before either has one: they end with one pair.
    const [ka, kb] = await Promise.all([a.call('GET', '/api/push/vapid-public-key'), b.call('GET', '/api/push/vapid-public-key')]);
    expect(ka.body.public_key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(kb.body.public_key).toBe(ka.body.public_key);

    expect((await a.call('POST', '/api/settings', { theme: 'light' })).status).toBe(200);
    expect((await b.call('GET', '/api/settings')).body.theme).toBe('light');

    const created = await a.call('POST', '/api/projects/create', { name: 'Shared', color: '#123456' });
    expect(created.status).toBe(200);
    const renamed = await b.call('POST', '/api/projects/rename', { project_id: created.body.project.project_id, name: 'Renamed on B' });
    expect(renamed.status).toBe(200);
    expect((await a.call('GET', '/api/projects')).body.projects.map((p: any) => [p.name, p.color])).toEqual([['Renamed on B', '#123456']]);

    const folder = join(a.workspace, 'shared-project');
    expect((await a.call('POST', '/api/workspaces/add', { path: folder, name: 'Shared folder', create: true })).status).toBe(200);
    expect((await b.call('GET', '/api/workspaces')).body.workspaces).toContainEqual(expect.objectContaining({ path: folder, name: 'Shared folder' }));

    // A password set through A. A third instance started after it (the others cache "no password"
    // for a few seconds) takes A's cookie, and a browser signed in there is signed in on A.
    const set = await a.call('POST', '/api/settings', { _set_password: 'correct horse' });
    expect(set.status).toBe(200);
    const fromA = set.res.headers.get('Set-Cookie')!.split(';')[0]!;
    const c = await makeTestApp({ storage: 'postgres', databaseUrl: a.databaseUrl! });
    apps.push(c);
    expect((await c.call('GET', '/api/auth/status', undefined, { Cookie: fromA })).body).toMatchObject({ auth_enabled: true, logged_in: true });
    expect((await c.call('GET', '/api/settings')).status).toBe(401);
    const { cookie } = await c.signIn('correct horse');
    expect((await a.call('GET', '/api/auth/status', undefined, { Cookie: cookie })).body).toMatchObject({ auth_enabled: true, logged_in: true });
  });
});
