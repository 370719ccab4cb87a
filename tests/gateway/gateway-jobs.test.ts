import { afterEach, describe, expect, it } from 'vitest';
import { GatewayCronJobs, GatewayJobsApi } from '../../src/agent/gateway/gateway-jobs.js';
import { GatewayHttp } from '../../src/agent/gateway/http.js';
import { withGatewayJobs } from '../../src/domain/cron/gateway-cron-service.js';
import type { CronJobStore, CronService, JobRunner, ProfileTasks } from '../../src/domain/cron/types.js';
import type { HermesHome } from '../../src/ports/hermes-home.js';
import { startJobsApi, type JobsApiServer } from '../fixtures/hermes-jobs-api.js';

const KEY = 'sk-test-jobs';
const servers: JobsApiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function gateway(options: Parameters<typeof startJobsApi>[0] = {}) {
  const s = await startJobsApi({ apiKey: KEY, ...options });
  servers.push(s);
  return s;
}

const api = (url: string, key: string | null = KEY) => new GatewayJobsApi(new GatewayHttp({ baseUrl: url, apiKey: async () => key }));
const home = (profile = 'default') => ({ profile, root: `/tmp/none/${profile}` }) as unknown as HermesHome;

/** The local service stands for the files-backed one another part builds: identity is what is checked. */
function localService() {
  const jobs = { home: home(), listOutputs: async () => [], readOutput: async () => null } as unknown as CronJobStore;
  const runner = { runNow: async () => ({ ok: true, session_id: 's' }), running: () => [] } as unknown as JobRunner;
  const answer: ProfileTasks = { kind: 'webui', via: 'files', jobs, runner };
  const service: CronService = { scheduler: null, forHome: async () => answer };
  return { service, answer };
}

function backendOf(choice: { backend: 'builtin' | 'gateway'; gatewayBaseUrl: string }) {
  return { current: async () => choice };
}

describe('GatewayCronJobs over Hermes’ /api/jobs', () => {
  it('lists, creates, pauses, resumes, updates, runs and deletes through the API with the key', async () => {
    const gw = await gateway();
    const jobs = new GatewayCronJobs(home(), api(gw.url));
    const created = await jobs.create({ prompt: 'Summarise my inbox folder', schedule: 'every 1h', skills: ['inbox'] });
    expect(created.id).toMatch(/^[a-f0-9]{12}$/);
    expect(created.schedule).toEqual({ kind: 'interval', minutes: 60, display: 'every 60m' });
    // Hermes' API requires a name: one is made from the prompt, as Hermes' create_job does.
    expect(gw.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/api/jobs',
      auth: `Bearer ${KEY}`,
      body: { name: 'Summarise my inbox folder', schedule: 'every 1h', deliver: 'local', skills: ['inbox'] },
    });
    expect((await jobs.list()).map((j) => j.id)).toEqual([created.id]);

    const paused = await jobs.pause(created.id);
    expect(paused).toMatchObject({ state: 'paused', enabled: false });
    expect(await jobs.list()).toEqual([]);
    expect((await jobs.list({ includeDisabled: true })).map((j) => j.id)).toEqual([created.id]);
    expect(await jobs.resume(created.id)).toMatchObject({ state: 'scheduled', enabled: true });

    // Only the fields Hermes' PATCH whitelists are sent; unknown fields of the job survive.
    const updated = await jobs.update(created.id, { name: 'Inbox', schedule: '0 9 * * *', repeat: null });
    expect(gw.requests.at(-1)).toMatchObject({ method: 'PATCH', body: { name: 'Inbox', schedule: '0 9 * * *' } });
    expect(gw.requests.at(-1)!.body).not.toHaveProperty('repeat');
    expect(updated).toMatchObject({ name: 'Inbox', schedule: { kind: 'cron', expr: '0 9 * * *' }, origin: { platform: 'api_server' } });

    // Outside Hermes' whitelist: the same value is no change, another is refused with the reason.
    expect((await jobs.update(created.id, { model: null }))?.id).toBe(created.id);
    await expect(jobs.update(created.id, { model: 'gpt-x' })).rejects.toMatchObject({ status: 400, message: "Hermes' gateway jobs API cannot change model" });

    const mutated = await jobs.mutate(created.id, (j) => {
      j.enabled = false;
    });
    expect(mutated?.enabled).toBe(false);
    expect(gw.requests.at(-1)).toMatchObject({ method: 'PATCH', body: { enabled: false } });

    expect(await jobs.remove(created.id)).toBe(true);
    expect(gw.jobs.size).toBe(0);
    expect(await jobs.remove(created.id)).toBe(false);
    expect(await jobs.get(created.id)).toBeNull();
  });

  it('turns the gateway’s refusals into ours: Job not found, its reason as a 400, a 502 when down', async () => {
    const gw = await gateway();
    const jobs = new GatewayCronJobs(home(), api(gw.url));
    await expect(jobs.create({ prompt: 'x', schedule: 'whenever' })).rejects.toMatchObject({ status: 400, message: "Invalid schedule 'whenever'" });
    expect(await jobs.pause('0123456789ab')).toBeNull();
    // A malformed id never reaches the gateway.
    const before = gw.requests.length;
    expect(await jobs.get('../etc')).toBeNull();
    expect(gw.requests.length).toBe(before);

    const wrongKey = new GatewayCronJobs(home(), api(gw.url, 'sk-wrong'));
    await expect(wrongKey.list()).rejects.toMatchObject({ status: 502, message: expect.stringMatching(/HTTP 401.*API key/) });

    const down = await gateway();
    await down.close();
    servers.splice(servers.indexOf(down), 1);
    const gone = new GatewayCronJobs(home(), api(down.url));
    await expect(gone.list()).rejects.toMatchObject({ status: 502, message: expect.stringContaining("Hermes' gateway did not answer GET /api/jobs") });
  });
});

describe('withGatewayJobs', () => {
  it('uses the jobs API for the default profile when the gateway offers it, and runs through it', async () => {
    const gw = await gateway();
    const { service } = localService();
    const cron = withGatewayJobs(service, { backend: backendOf({ backend: 'gateway', gatewayBaseUrl: gw.url }), api: (url) => api(url) });
    const tasks = await cron.forHome(home());
    expect(tasks).toMatchObject({ kind: 'gateway', via: 'api' });
    expect(tasks.jobs).toBeInstanceOf(GatewayCronJobs);
    const job = await tasks.jobs.create({ prompt: 'p', schedule: '30m', name: 'Half hourly' });
    expect(await tasks.runner!.runNow(job.id)).toEqual({ ok: true, session_id: null });
    expect(gw.requests.at(-1)).toMatchObject({ method: 'POST', path: `/api/jobs/${job.id}/run` });
    await expect(tasks.runner!.runNow('0123456789ab')).rejects.toMatchObject({ status: 404, message: 'Job not found' });

    // The probe is cached: a second request does not ask again.
    const probes = gw.requests.filter((r) => r.path === '/v1/capabilities').length;
    await cron.forHome(home());
    expect(gw.requests.filter((r) => r.path === '/v1/capabilities').length).toBe(probes);

    // Another profile: the API serves the gateway's own home only, so its jobs.json is edited here.
    const other = await cron.forHome(home('work'));
    expect(other).toMatchObject({ kind: 'gateway', via: 'files', runner: null });
  });

  it('takes the capabilities document’s word when it names the jobs endpoints', async () => {
    const gw = await gateway({ advertise: true });
    const { service } = localService();
    const cron = withGatewayJobs(service, { backend: backendOf({ backend: 'gateway', gatewayBaseUrl: gw.url }), api: (url) => api(url) });
    expect(await cron.forHome(home())).toMatchObject({ kind: 'gateway', via: 'api' });
    expect(gw.requests.map((r) => r.path)).toEqual(['/v1/capabilities']);
  });

  it('falls back to jobs.json with no runner when the gateway has no jobs API (Hermes’ ticker runs them)', async () => {
    const gw = await gateway({ jobs: false, capabilities: false });
    const { service, answer } = localService();
    const cron = withGatewayJobs(service, { backend: backendOf({ backend: 'gateway', gatewayBaseUrl: gw.url }), api: (url) => api(url) });
    const tasks = await cron.forHome(home());
    expect(tasks).toEqual({ kind: 'gateway', via: 'files', jobs: answer.jobs, runner: null });
    expect(gw.requests.map((r) => r.path)).toEqual(['/v1/capabilities', '/api/jobs']);
  });

  it('never asks the gateway while the builtin agent answers', async () => {
    const gw = await gateway();
    const { service, answer } = localService();
    const cron = withGatewayJobs(service, { backend: backendOf({ backend: 'builtin', gatewayBaseUrl: gw.url }), api: (url) => api(url) });
    expect(await cron.forHome(home())).toBe(answer);
    expect(await cron.forHome(home('work'))).toBe(answer);
    expect(gw.requests).toEqual([]);
  });
});
