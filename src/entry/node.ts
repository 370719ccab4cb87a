import { serve, type ServerType } from '@hono/node-server';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createApp } from '../app.js';
import { ConfigError, bindRefusal, parseConfig, type Config } from '../config.js';
import type { Logger } from '../ports/platform.js';
import { composeNodeDeps } from './node-deps.js';
import { directLiveStreams } from './node-live.js';
import './node-heap.js';
import { gracefulShutdown } from './node-shutdown.js';

declare const __APP_VERSION__: string | undefined;
const VERSION = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev';

/** JSON lines: requests to stdout, errors to stderr. */
export const jsonLogger: Logger = {
  info: (record) => process.stdout.write(JSON.stringify(record) + '\n'),
  error: (record) => process.stderr.write(JSON.stringify({ level: 'error', ts: new Date().toISOString(), ...record }) + '\n'),
};

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
  const deps = await composeNodeDeps(config, { logger: jsonLogger, env: process.env, publicDir });
  // Without a password, only this machine may reach the server.
  const refusal = bindRefusal(config, (await deps.settings.read()).password_hash);
  if (refusal) fail(refusal);
  const app = createApp(deps);

  const server: ServerType = serve({ fetch: directLiveStreams(app.fetch), hostname: config.host, port: config.port }, (info) => {
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    process.stdout.write(`Hermes WebUI ${VERSION} listening on http://${host}:${info.port} · state dir ${config.stateDir} · storage ${deps.sessions.kind}\n`);
    // Due tasks (and those missed while the server was down) run once it is serving.
    deps.cron?.scheduler?.start();
  });
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') fail(`port ${config.port} on ${config.host} is already in use; set HERMES_WEBUI_PORT to another port`);
    fail(String(err));
  });

  const shutdown = gracefulShutdown({
    server,
    registry: deps.agent.registry,
    sessions: deps.sessions,
    ...(deps.closeStorage ? { closeStorage: deps.closeStorage } : {}),
    ...(deps.cron?.scheduler ? { scheduler: deps.cron.scheduler } : {}),
    ...(deps.agent.processes ? { processes: deps.agent.processes } : {}),
    ...(deps.terminals ? { terminals: deps.terminals } : {}),
    ...(deps.mcp ? { mcp: deps.mcp } : {}),
    ...(deps.serverLog ? { logFile: deps.serverLog } : {}),
    logger: jsonLogger,
    resumeTurns: config.runs.resume,
    out: (line) => process.stdout.write(line),
    exit: (code) => process.exit(code),
  });
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

await main();
