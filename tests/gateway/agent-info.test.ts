import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { profileFrom, limitationsOf } from '../../src/agent/gateway/capabilities.js';
import { SilenceError, withSilenceLimit } from '../../src/agent/gateway/http.js';
import { conversationHistory } from '../../src/agent/gateway/runtime.js';
import { gatewayApiKey } from '../../src/adapters/platform/node-gateway-key.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { makeGatewayApp, type GatewayHarness } from './harness.js';

describe('GET /api/agent, /api/models and onboarding with the gateway backend', () => {
  let h: GatewayHarness | undefined;
  let t: TestApp | undefined;
  afterEach(async () => {
    await h?.close();
    await t?.close();
    h = t = undefined;
  });

  it('says the runs API is in use, what it supports and what it cannot do', async () => {
    h = await makeGatewayApp({ gateway: { apiKey: 'k-abcdef' } });
    const r = await h.call('GET', '/api/agent');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      kind: 'gateway',
      label: 'Hermes Agent',
      path: 'runs',
      base_url: h.gw.url,
      reachable: true,
      platform: 'hermes-agent',
      version: 'fake-0.20',
      features: { streaming: true, tool_events: true, approvals: true, clarify: false, stop: true, sessions: false, reasoning: false },
    });
    expect(r.body.limitations.join(' ')).toMatch(/Clarifying questions are not available/);
    expect(r.body.limitations.join(' ')).not.toMatch(/No approval prompts/);
  });

  it('on the chat-completions path: no approvals, and says so', async () => {
    h = await makeGatewayApp({ gateway: { runs: false } });
    const r = await h.call('GET', '/api/agent');
    expect(r.body).toMatchObject({ path: 'chat_completions', features: { approvals: false, clarify: false, stop: true } });
    expect(r.body.limitations.join(' ')).toMatch(/No approval prompts on this path/);
  });

  it('a gateway that is down: unreachable, with the error and a hint', async () => {
    h = await makeGatewayApp({ baseUrl: 'http://127.0.0.1:9' });
    const r = await h.call('GET', '/api/agent');
    expect(r.body).toMatchObject({ kind: 'gateway', path: null, reachable: false });
    expect(r.body.error).toMatch(/Could not reach Hermes Agent/);
    expect(r.body.hint).toMatch(/hermes gateway/);
  });

  it('refresh=1 asks the gateway again (capabilities changed)', async () => {
    h = await makeGatewayApp();
    expect((await h.call('GET', '/api/agent')).body.path).toBe('runs');
    h.gw.configure({ runs: false });
    expect((await h.call('GET', '/api/agent')).body.path).toBe('runs'); // cached
    expect((await h.call('GET', '/api/agent?refresh=1')).body.path).toBe('chat_completions');
  });

  it('the builtin agent describes itself too', async () => {
    t = await makeTestApp();
    expect((await t.call('GET', '/api/agent')).body).toMatchObject({
      kind: 'builtin',
      path: 'builtin',
      reachable: true,
      features: { clarify: true, approvals: true },
    });
  });

  it('GET /api/models lists what the gateway offers; its advertised model is the default', async () => {
    h = await makeGatewayApp({ gateway: { models: ['hermes-agent', 'other'] } });
    const r = await h.call('GET', '/api/models');
    expect(r.body).toMatchObject({ active_provider: 'hermes', default_model: 'hermes-agent', stale: false });
    expect(r.body.groups).toEqual([
      {
        provider: 'hermes',
        label: 'Hermes Agent',
        models: [
          { id: 'hermes-agent', label: 'hermes-agent' },
          { id: 'other', label: 'other' },
        ],
        source: 'live',
      },
    ]);
    expect(r.body.models.map((m: any) => m.id)).toEqual(['hermes-agent', 'other']);
  });

  it('GET /api/models without /v1/models offers the configured model; down, it says why', async () => {
    h = await makeGatewayApp({ gateway: { models: null, model: 'my-profile' } });
    const r = await h.call('GET', '/api/models');
    expect(r.body.groups[0]).toMatchObject({ source: 'config', models: [{ id: 'my-profile', label: 'my-profile' }] });
    expect(r.body.default_model).toBe('my-profile');
    await h.close();
    h = await makeGatewayApp({ baseUrl: 'http://127.0.0.1:9' });
    const down = await h.call('GET', '/api/models');
    expect(down.status).toBe(200);
    expect(down.body.groups[0].error).toMatch(/Could not reach Hermes Agent/);
  });

  it('needs no onboarding: the wizard is off and its setup routes say the agent is configured elsewhere', async () => {
    h = await makeGatewayApp();
    const status = await h.call('GET', '/api/onboarding/status');
    expect(status.body).toMatchObject({ needed: false, completed: true, agent_runtime: 'gateway' });
    expect((await h.call('POST', '/api/onboarding/probe', { provider: 'openrouter' })).status).toBe(404);
    expect((await h.call('POST', '/api/default-model', { model: 'x' })).status).toBe(400);
  });
});

describe('gateway pieces', () => {
  it('reads capabilities: runs, approvals, sessions, and the fallback for old servers', () => {
    const full = profileFrom({
      model: 'hermes-agent',
      platform: 'hermes-agent',
      features: {
        run_submission: true,
        run_events_sse: true,
        run_approval_response: true,
        approval_events: true,
        run_stop: true,
        session_continuity_header: 'X-Hermes-Session-Id',
      },
    });
    expect(full).toMatchObject({ path: 'runs', approvals: true, stop: true, sessions: false, model: 'hermes-agent', advertised: true });
    expect(profileFrom({ features: { run_submission: true, run_events_sse: true, session_messages: true } })).toMatchObject({
      path: 'runs',
      approvals: false,
      sessions: true,
    });
    expect(profileFrom({ features: { run_submission: true, run_events_sse: true }, endpoints: { session_list: { path: '/api/sessions' } } }).sessions).toBe(
      true,
    );
    expect(profileFrom({ features: { run_submission: true } })).toMatchObject({ path: 'chat_completions' });
    expect(profileFrom(null, { platform: 'hermes-agent', version: '0.9' })).toMatchObject({
      path: 'chat_completions',
      advertised: false,
      version: '0.9',
      approvals: false,
    });
    expect(profileFrom({ features: { chat_completions: false } }).path).toBeNull();
    expect(limitationsOf(profileFrom({ features: { run_submission: true, run_events_sse: true } })).join(' ')).toMatch(
      /does not relay approvals.*cannot stop a run early/,
    );
  });

  it('withSilenceLimit passes bytes through and errors after a silence, unless paused', async () => {
    const enc = new TextEncoder();
    let push!: ReadableStreamDefaultController<Uint8Array>;
    const source = new ReadableStream<Uint8Array>({ start: (c) => void (push = c) });
    let paused = true;
    const reader = withSilenceLimit(source, 80, () => paused).getReader();
    push.enqueue(enc.encode('a'));
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('a');
    const next = reader.read();
    await new Promise((r) => setTimeout(r, 200)); // paused: no error
    push.enqueue(enc.encode('b'));
    expect(new TextDecoder().decode((await next).value)).toBe('b');
    paused = false;
    await expect(reader.read()).rejects.toBeInstanceOf(SilenceError);
  });

  it('conversation_history: user and assistant text only, notices dropped, one entry per reply', () => {
    const session = {
      session_id: 's',
      title: 't',
      created_at: 0,
      updated_at: 0,
      messages: [
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: 'Looking.', tool_calls: [{ id: 'c', type: 'function', function: { name: 'terminal', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c', content: 'out' },
        { role: 'assistant', content: 'Answer one.' },
        { role: 'user', content: [{ type: 'text', text: 'q2' }] },
        { role: 'assistant', content: 'Provider failed\n\nTry again', _error: true },
        { role: 'user', content: 'q3 (this turn)' },
      ],
    };
    expect(conversationHistory(session as any)).toEqual([
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'Looking.\n\nAnswer one.' },
      { role: 'user', content: 'q2' },
    ]);
  });

  it('the API key: HERMES_WEBUI_GATEWAY_API_KEY, else API_SERVER_KEY from the environment, else from $HERMES_HOME/.env (read each time)', async () => {
    const home = await mkdtemp(join(tmpdir(), 'hermes-key-'));
    try {
      expect(await gatewayApiKey(home, 'explicit', { API_SERVER_KEY: 'env' })()).toBe('explicit');
      expect(await gatewayApiKey(home, undefined, { API_SERVER_KEY: 'env' })()).toBe('env');
      const fromFile = gatewayApiKey(home, undefined, {});
      expect(await fromFile()).toBeNull();
      await writeFile(join(home, '.env'), 'OPENROUTER_API_KEY=x\nAPI_SERVER_KEY="from-dotenv"\n');
      expect(await fromFile()).toBe('from-dotenv');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
