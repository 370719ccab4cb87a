import { serve, type ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createApp } from '../app.js';
import { ConfigError, bindRefusal, isLoopbackHost, parseConfig, type Config } from '../config.js';
import type { AppDeps } from '../deps.js';
import type { Logger } from '../ports/platform.js';
import { FsSessionStore } from '../adapters/storage/fs/fs-session-store.js';
import { FsProjectStore, FsSettingsStore, FsWorkspaceStore } from '../adapters/storage/fs/fs-stores.js';
import { MemorySessionStore } from '../adapters/storage/memory/memory-session-store.js';
import { MemoryProjectStore, MemorySettingsStore, MemoryWorkspaceStore } from '../adapters/storage/memory/memory-stores.js';
import { NodeWorkspaceFiles } from '../adapters/platform/node-workspace-files.js';
import { NodeAttachmentStore } from '../adapters/platform/node-attachments.js';
import { NodeAssetSource } from '../adapters/platform/node-assets.js';
import { NodeCompressor } from '../adapters/platform/node-compression.js';
import { NodeAgentConfigSource } from '../adapters/platform/node-agent-config.js';
import { NodeToolHost } from '../adapters/platform/node-tool-host.js';
import { FsRunJournal } from '../adapters/storage/fs/fs-run-journal.js';
import { MemoryRunJournal } from '../runs/journal.js';
import { RunRegistry } from '../runs/registry.js';
import { InteractionHub } from '../runs/interactions.js';
import { recoverInterruptedTurns } from '../runs/recovery.js';
import { BuiltinAgentRuntime } from '../agent/builtin/runtime.js';
import type { AgentRuntime } from '../agent/runtime.js';
import { SwitchingRuntime } from '../agent/switching-runtime.js';
import { settingsBackendChoice } from '../agent/backend-choice.js';
import { GatewayAgentRuntime } from '../agent/gateway/runtime.js';
import { gatewayApiKey } from '../adapters/platform/node-gateway-key.js';
import { NodeHermesStateDb } from '../adapters/platform/node-hermes-state-db.js';
import { FsEmbedTokenStore } from '../adapters/storage/fs/fs-embed-tokens.js';
import { MemoryEmbedTokenStore } from '../adapters/storage/memory/memory-embed-tokens.js';
import { FsAuthStore } from '../adapters/storage/fs/fs-auth-store.js';
import { FsJsonDocument } from '../adapters/storage/fs/fs-json-document.js';
import { join } from 'node:path';
import { MemoryAuthStore } from '../adapters/storage/memory/memory-auth-store.js';

declare const __APP_VERSION__: string | undefined;
const VERSION = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev';

/** JSON lines: requests to stdout, errors to stderr. */
export const jsonLogger: Logger = {
  info: (record) => process.stdout.write(JSON.stringify(record) + '\n'),
  error: (record) => process.stderr.write(JSON.stringify({ level: 'error', ts: new Date().toISOString(), ...record }) + '\n'),
};

// ---- HERMES_WEBUI_CHAT_BACKEND=gateway: a real Hermes Agent answers through its API server ----

/** The gateway runtime; its key is HERMES_WEBUI_GATEWAY_API_KEY, else Hermes' own API_SERVER_KEY. */
export function gatewayRuntime(config: Config, hub: InteractionHub, logger: Logger, now: () => number): GatewayAgentRuntime {
  return new GatewayAgentRuntime({
    baseUrl: config.gateway.baseUrl,
    apiKey: gatewayApiKey(config.hermesHome, config.gateway.apiKey, process.env),
    hub,
    logger,
    now,
    readTimeoutMs: config.gateway.readTimeoutMs,
  });
}

// ---------------------------------------------------------------------------------------------------

/** Builds the Node adapters for a configuration; the state directory is created if missing. */
export async function buildNodeDeps(config: Config, logger: Logger, publicDir: string): Promise<AppDeps> {
  const clock = { now: () => Date.now() / 1000 };
  await mkdir(config.stateDir, { recursive: true });
  await mkdir(config.defaultWorkspace, { recursive: true });
  const files = new NodeWorkspaceFiles();
  const defaultWorkspace = await files.checkWorkspace(config.defaultWorkspace);
  const fs = config.storage === 'fs';
  const settings = fs ? new FsSettingsStore(config.stateDir, logger) : new MemorySettingsStore();
  const sessions = fs ? new FsSessionStore({ stateDir: config.stateDir, clock, logger }) : new MemorySessionStore(clock);
  await sessions.init();
  const now = clock.now;
  const journal = fs ? new FsRunJournal(config.stateDir, logger) : new MemoryRunJournal();
  // Turns that were running when the process last died are closed and marked before serving.
  await recoverInterruptedTurns({ sessions, journal, logger, now });
  const hub = new InteractionHub(now);
  const builtin = new BuiltinAgentRuntime({
    config: new NodeAgentConfigSource(config.hermesHome, { ...process.env }),
    host: new NodeToolHost(),
    hub,
    hermesHome: config.hermesHome,
    logger,
    now,
    catalogCache: fs ? new FsJsonDocument(join(config.stateDir, 'models_cache.json'), logger) : undefined,
    catalogBudgetMs: config.modelsBudgetMs,
  });
  // Settings (or the first-run wizard) choose the backend unless HERMES_WEBUI_CHAT_BACKEND fixed it.
  const runtime: AgentRuntime = new SwitchingRuntime(
    builtin,
    (baseUrl, apiKey) => gatewayRuntime({ ...config, gateway: { ...config.gateway, baseUrl, ...(apiKey ? { apiKey } : {}) } }, hub, logger, now),
    settingsBackendChoice(settings, { ...(config.chatBackendFixed ? { backend: config.chatBackend } : {}), ...(config.gatewayBaseUrlFixed ? { gatewayBaseUrl: config.gateway.baseUrl } : {}) }),
  );
  return {
    agent: { runtime, registry: new RunRegistry({ journal, now }), hub },
    sessions,
    settings,
    projects: fs ? new FsProjectStore(config.stateDir, logger) : new MemoryProjectStore(),
    workspaces: fs ? new FsWorkspaceStore(config.stateDir, logger) : new MemoryWorkspaceStore(),
    files,
    attachments: new NodeAttachmentStore(config.stateDir),
    assets: new NodeAssetSource(publicDir),
    compression: new NodeCompressor(),
    embed: { origins: config.embedOrigins ?? [], tokens: fs ? new FsEmbedTokenStore(config.stateDir, logger) : new MemoryEmbedTokenStore() },
    auth: fs ? new FsAuthStore(config.stateDir, logger) : new MemoryAuthStore(),
    // Hermes' own sessions (CLI, Telegram …), read-only, listed when show_cli_sessions is on.
    agentSessions: new NodeHermesStateDb(join(config.hermesHome, 'state.db'), logger),
    clientAddress: (c) => {
      try {
        return getConnInfo(c).remote.address;
      } catch {
        return undefined; // not a Node socket (app.request in tests)
      }
    },
    clock,
    logger,
    options: {
      defaultWorkspace,
      maxUploadBytes: config.maxUploadBytes,
      version: VERSION,
      auth: { ...config.auth, publicBind: !isLoopbackHost(config.host) },
      onboarding: config.onboarding,
    },
  };
}

function fail(message: string): never {
  process.stderr.write(`hermes-webui: ${message}\n`);
  process.exit(1);
}

async function main() {
  let config: Config;
  try {
    config = parseConfig(process.env, { home: homedir() });
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  // HERMES_WEBUI_PUBLIC_DIR serves another build of the front end (tests swap in a new sw.js).
  const publicDir = process.env.HERMES_WEBUI_PUBLIC_DIR || fileURLToPath(new URL('../public', import.meta.url));
  const deps = await buildNodeDeps(config, jsonLogger, publicDir);
  // Without a password, only this machine may reach the server.
  const refusal = bindRefusal(config, (await deps.settings.read()).password_hash);
  if (refusal) fail(refusal);
  const app = createApp(deps);

  const server: ServerType = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, (info) => {
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    process.stdout.write(
      `Hermes WebUI ${VERSION} listening on http://${host}:${info.port} · state dir ${config.stateDir} · storage ${deps.sessions.kind}\n`,
    );
  });
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') fail(`port ${config.port} on ${config.host} is already in use; set HERMES_WEBUI_PORT to another port`);
    fail(String(err));
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`Received ${signal}; finishing requests and saving state\n`);
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    deps.agent.registry.abortAll('server shutting down');
    server.close(async () => {
      await deps.sessions.dispose().catch((err) => jsonLogger.error({ msg: 'dispose failed', error: String(err) }));
      process.exit(0);
    });
    // Idle keep-alive connections would hold close() open.
    (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

await main();
