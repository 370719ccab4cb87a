import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { TITLE_INSTRUCTIONS } from '../../src/agent/builtin/title.js';
import { makeTestApp, type TestApp } from './app.js';
import type { NodeDepsOverrides } from '../../src/entry/node-deps.js';
import type { BackoffPolicy } from '../../src/agent/providers/retry.js';
import { readStream, type Frame } from './sse.js';

export const TITLE = 'Scripted Title';

/** True when a recorded request is the agent's title request (not a turn). */
export const isTitleRequest = (req: { body: any }) => req.body?.messages?.[0]?.content === TITLE_INSTRUCTIONS;

export interface ChatHarness extends TestApp {
  model: ScriptedServer;
  /** Starts a turn; returns the start response body. */
  start(sessionId: string, message: string, extra?: Record<string, unknown>): Promise<{ status: number; body: any }>;
  /** Opens the stream of a turn (optionally resuming) and reads it to the end. */
  stream(
    streamId: string,
    options?: { lastEventId?: string; afterSeq?: number; until?: (f: Frame) => boolean; onFrame?: (f: Frame) => void | Promise<void> },
  ): Promise<Frame[]>;
  /** Turn requests the model received (title requests left out). */
  turnRequests(): any[];
}

/** An app whose agent talks to a scripted OpenAI-compatible server; titles are answered automatically. */
export async function makeChatApp(
  options: {
    storage?: 'memory' | 'fs' | 'postgres';
    /** With `storage: 'postgres'`: another app's database (kept) instead of a fresh one (dropped on close). */
    databaseUrl?: string;
    extraYaml?: string;
    clarifyTimeoutMs?: number;
    keepFinishedMs?: number;
    backoff?: Partial<BackoffPolicy>;
    /** Keys the agent sees (as `.env` / the environment would give them). */
    agentEnv?: Record<string, string>;
    /** Scripted servers in place of the hosted web APIs. */
    webEndpoints?: NodeDepsOverrides['webEndpoints'];
    /** More of the server's environment (HERMES_WEBUI_*). */
    env?: Record<string, string>;
    /** The task scheduler's knobs (tick period, lease length, timer). */
    scheduler?: NodeDepsOverrides['scheduler'];
  } = {},
): Promise<ChatHarness> {
  const model = await startScriptedOpenAI();
  // Title requests are answered aside, so they never take a turn's queued script.
  model.setRouter((req) => (isTitleRequest(req) ? [{ text: TITLE }] : undefined));
  model.setFallback(() => ({ status: 500, body: 'no script queued for this request' }));
  const t = await makeTestApp({
    storage: options.storage,
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    clarifyTimeoutMs: options.clarifyTimeoutMs,
    keepFinishedMs: options.keepFinishedMs,
    backoff: options.backoff,
    ...(options.agentEnv ? { agentEnv: options.agentEnv } : {}),
    ...(options.webEndpoints ? { webEndpoints: options.webEndpoints } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
    configYaml: `# test configuration\nmodel:\n  default: test-model\n  provider: custom\n  base_url: ${model.url}\n${options.extraYaml ?? ''}`,
  });
  const close = t.close;
  return Object.assign(t, {
    model,
    async start(sessionId: string, message: string, extra: Record<string, unknown> = {}) {
      const r = await t.call('POST', '/api/chat/start', { session_id: sessionId, message, ...extra });
      return { status: r.status, body: r.body };
    },
    async stream(
      streamId: string,
      o: { lastEventId?: string; afterSeq?: number; until?: (f: Frame) => boolean; onFrame?: (f: Frame) => void | Promise<void> } = {},
    ) {
      const q = o.afterSeq !== undefined ? `&after_seq=${o.afterSeq}` : '';
      const res = await t.app.request(`/api/chat/stream?stream_id=${streamId}${q}`, { headers: o.lastEventId ? { 'Last-Event-ID': o.lastEventId } : {} });
      if (res.status !== 200) throw new Error(`stream ${res.status}: ${await res.text()}`);
      return readStream(res, { until: o.until, onFrame: o.onFrame });
    },
    turnRequests() {
      return model.requests.filter((r) => !isTitleRequest(r)).map((r) => r.body);
    },
    async close() {
      await close();
      await model.close();
    },
  });
}
