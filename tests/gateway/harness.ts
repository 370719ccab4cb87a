import { GatewayAgentRuntime } from '../../src/agent/gateway/runtime.js';
import { startHermesGateway, type FakeGateway, type GatewayOptions } from '../fixtures/hermes-gateway.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { readStream, type Frame } from '../helpers/sse.js';

export interface GatewayHarness extends TestApp {
  gw: FakeGateway;
  runtime: GatewayAgentRuntime;
  start(sessionId: string, message: string, extra?: Record<string, unknown>): Promise<{ status: number; body: any }>;
  stream(streamId: string, options?: { until?: (f: Frame) => boolean; onFrame?: (f: Frame) => void | Promise<void>; timeoutMs?: number }): Promise<Frame[]>;
  /** Starts a turn in a new (or the given) session and reads its stream to the end. */
  turn(
    message: string,
    options?: { sessionId?: string; onFrame?: (f: Frame) => void | Promise<void>; extra?: Record<string, unknown> },
  ): Promise<{ sessionId: string; frames: Frame[]; session: any }>;
}

/**
 * The real app as the server runs it with HERMES_WEBUI_CHAT_BACKEND=gateway, against the
 * scripted Hermes API server. `baseUrl` overrides where it looks (a closed port: "down");
 * `apiKey` is HERMES_WEBUI_GATEWAY_API_KEY (default: the scripted server's; null: none).
 */
export async function makeGatewayApp(
  options: {
    gateway?: GatewayOptions;
    apiKey?: string | null;
    readTimeoutMs?: number;
    baseUrl?: string;
    storage?: 'memory' | 'fs';
    /** More of the server's environment (HERMES_WEBUI_PREFILL_* …), and the default profile's config.yaml. */
    env?: Record<string, string>;
    configYaml?: string;
  } = {},
): Promise<GatewayHarness> {
  const gw = await startHermesGateway(options.gateway ?? {});
  const apiKey = options.apiKey === undefined ? options.gateway?.apiKey : options.apiKey;
  const t = await makeTestApp({
    storage: options.storage,
    ...(options.configYaml !== undefined ? { configYaml: options.configYaml } : {}),
    env: {
      ...options.env,
      HERMES_WEBUI_CHAT_BACKEND: 'gateway',
      HERMES_WEBUI_GATEWAY_BASE_URL: options.baseUrl ?? gw.url,
      HERMES_WEBUI_GATEWAY_READ_TIMEOUT: String((options.readTimeoutMs ?? 5000) / 1000),
      ...(apiKey ? { HERMES_WEBUI_GATEWAY_API_KEY: apiKey } : {}),
    },
  });
  // With the backend fixed, the server's runtime is the gateway runtime itself.
  const runtime = t.deps.agent.runtime;
  if (!(runtime instanceof GatewayAgentRuntime)) throw new Error(`expected the gateway runtime, the server built ${runtime.kind}`);
  const close = t.close;
  const h: GatewayHarness = Object.assign(t, {
    gw,
    runtime,
    async start(sessionId: string, message: string, extra: Record<string, unknown> = {}) {
      const r = await t.call('POST', '/api/chat/start', { session_id: sessionId, message, ...extra });
      return { status: r.status, body: r.body };
    },
    async stream(streamId: string, o: { until?: (f: Frame) => boolean; onFrame?: (f: Frame) => void | Promise<void>; timeoutMs?: number } = {}) {
      const res = await t.app.request(`/api/chat/stream?stream_id=${streamId}`);
      if (res.status !== 200) throw new Error(`stream ${res.status}: ${await res.text()}`);
      return readStream(res, o);
    },
    async turn(message: string, o: { sessionId?: string; onFrame?: (f: Frame) => void | Promise<void>; extra?: Record<string, unknown> } = {}) {
      const sessionId = o.sessionId ?? (await t.newSession());
      const started = await h.start(sessionId, message, o.extra);
      if (started.status !== 200) throw new Error(`start ${started.status}: ${JSON.stringify(started.body)}`);
      const frames = await h.stream(started.body.stream_id, { onFrame: o.onFrame });
      const session = (await t.call('GET', `/api/session?session_id=${sessionId}`)).body.session;
      return { sessionId, frames, session };
    },
    async close() {
      await close();
      await gw.close();
    },
  });
  return h;
}

export const events = (frames: Frame[], name: string) => frames.filter((f) => f.event === name).map((f) => f.data);
export const names = (frames: Frame[]) => frames.map((f) => f.event);
export const text = (frames: Frame[]) =>
  events(frames, 'token')
    .map((d) => d.text)
    .join('');
