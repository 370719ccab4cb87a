import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';

/**
 * Per-profile isolation: a turn runs in its session's profile home — that profile's config.yaml,
 * .env keys and memories — whichever profile the browser is in when it sends.
 */
describe('chat: each profile is its own Hermes home', () => {
  let t: ChatHarness;
  afterEach(async () => t?.close());

  const WORK = { Cookie: 'hermes_profile=work' };

  async function twoProfiles() {
    t = await makeChatApp();
    const config = (label: string) => `# ${label}\nmodel:\n  default: ${label}-model\n  provider: openai\n  base_url: ${t.model.url}\n`;
    const work = join(t.hermesHome, 'profiles/work');
    await mkdir(join(work, 'memories'), { recursive: true });
    await mkdir(join(t.hermesHome, 'memories'), { recursive: true });
    await writeFile(join(t.hermesHome, 'config.yaml'), config('home'));
    await writeFile(join(t.hermesHome, '.env'), 'OPENAI_API_KEY=sk-home-1111111111\n');
    await writeFile(join(t.hermesHome, 'memories/MEMORY.md'), 'Home fact: uses npm');
    await writeFile(join(work, 'config.yaml'), config('work'));
    await writeFile(join(work, '.env'), 'OPENAI_API_KEY=sk-work-2222222222\n');
    await writeFile(join(work, 'memories/MEMORY.md'), 'Work fact: uses pnpm');
  }

  const newSession = async (headers: Record<string, string> = {}) => {
    const r = await t.call('POST', '/api/session/new', {}, headers);
    expect(r.status).toBe(200);
    return r.body.session as { session_id: string; profile: string };
  };

  const turn = async (sid: string, headers: Record<string, string> = {}) => {
    const before = t.model.requests.length;
    t.model.enqueue([{ text: 'ok' }]);
    const r = await t.call('POST', '/api/chat/start', { session_id: sid, message: 'hello' }, headers);
    expect(r.status).toBe(200);
    await t.stream(r.body.stream_id);
    return t.model.requests.slice(before).find((req) => !JSON.stringify(req.body).includes('Generate a short'))!;
  };

  it("a work session's turn uses work's model, key and memory, and never home's", async () => {
    await twoProfiles();
    const session = await newSession(WORK);
    expect(session.profile).toBe('work');
    const req = await turn(session.session_id, WORK);
    expect(req.headers.authorization).toBe('Bearer sk-work-2222222222');
    expect(req.body.model).toBe('work-model');
    const system = JSON.stringify(req.body.messages[0]);
    expect(system).toContain('Work fact: uses pnpm');
    expect(JSON.stringify(req)).not.toContain('sk-home-1111111111');
    expect(system).not.toContain('Home fact');
  });

  it("a home session keeps home's files even when the browser has switched to work since", async () => {
    await twoProfiles();
    const session = await newSession();
    expect(session.profile).toBe('default');
    const req = await turn(session.session_id, WORK);
    expect(req.headers.authorization).toBe('Bearer sk-home-1111111111');
    expect(req.body.model).toBe('home-model');
    expect(JSON.stringify(req.body.messages[0])).toContain('Home fact: uses npm');
    expect(JSON.stringify(req)).not.toContain('sk-work-2222222222');
  });

  it('the model picker, reasoning and workspaces answer for the browser profile', async () => {
    await twoProfiles();
    const models = async (headers: Record<string, string>) => (await t.call('GET', '/api/models', undefined, headers)).body.default_model;
    expect(await models({})).toBe('home-model');
    expect(await models(WORK)).toBe('work-model');
    // hiding reasoning in work writes work's config.yaml only
    expect((await t.call('POST', '/api/reasoning', { display: 'hide' }, WORK)).status).toBe(200);
    expect((await t.call('GET', '/api/reasoning', undefined, WORK)).body.show_reasoning).toBe(false);
    expect((await t.call('GET', '/api/reasoning')).body.show_reasoning).toBe(true);
    // each profile has its own saved workspace list
    const folder = join(t.hermesHome, '..', 'work-folder');
    await mkdir(folder, { recursive: true });
    expect((await t.call('POST', '/api/workspaces/add', { path: folder }, WORK)).status).toBe(200);
    const paths = async (headers: Record<string, string>) =>
      ((await t.call('GET', '/api/workspaces', undefined, headers)).body.workspaces as { path: string }[]).map((w) => w.path);
    expect(await paths(WORK)).toContain(folder);
    expect(await paths({})).not.toContain(folder);
  });
});
