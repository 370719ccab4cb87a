import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import { ConfigError, parseConfig } from '../config.js';
import type { Logger } from '../ports/platform.js';
import { NodeHermesHomes } from '../adapters/platform/node-hermes-homes.js';
import { composeNodeStorage, type NodeStorage } from './node-storage.js';
import { copyStorage } from './migrate-copy.js';

const HELP = `Usage: npm run migrate -- --from fs --to postgres

Copies this server's state from the state dir into Postgres, once, before switching
HERMES_WEBUI_STORAGE to postgres: every session (messages exactly, timestamps kept),
settings, projects, workspaces (each profile's too), sign-in keys and sessions, embed
tokens, push keys and subscriptions, and run journals.

  --from fs        the source: the state dir (HERMES_WEBUI_STATE_DIR, default $HERMES_HOME/webui)
  --to postgres    the target: HERMES_WEBUI_DATABASE_URL (migrated first, like the server does)
  -h, --help       this text

Safe to run again: nothing is duplicated, and what the database already has is kept, except
a session whose copy in the state dir is newer (a later updated_at). A session changed in
Postgres since the last import is kept as it is there. Login rate-limit counters are not copied.
The exit code is 0 when everything was copied, 1 otherwise.`;

/** Errors only, as one line each: progress is the CLI's own output. */
const cliLogger: Logger = {
  info: () => {},
  error: (record) => process.stderr.write(`  ${String(record.msg)}${record.error ? `: ${String(record.error)}` : ''}\n`),
};

async function main(argv: string[]): Promise<number> {
  let args: { from?: string; to?: string; help?: boolean };
  try {
    ({ values: args } = parseArgs({
      args: argv,
      options: { from: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${HELP}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (args.from !== 'fs' || args.to !== 'postgres') {
    process.stderr.write(`Only --from fs --to postgres is supported (got --from ${args.from ?? '(none)'} --to ${args.to ?? '(none)'}).\n\n${HELP}\n`);
    return 2;
  }
  const home = homedir();
  const env = process.env;
  let source: ReturnType<typeof parseConfig>;
  let target: ReturnType<typeof parseConfig>;
  try {
    source = parseConfig({ ...env, HERMES_WEBUI_STORAGE: 'fs' }, { home });
    target = parseConfig({ ...env, HERMES_WEBUI_STORAGE: 'postgres' }, { home });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return 2;
  }
  if (!existsSync(source.stateDir)) {
    process.stderr.write(`No state dir at ${source.stateDir} (set HERMES_WEBUI_STATE_DIR or HERMES_HOME).\n`);
    return 1;
  }
  const started = Date.now();
  const clock = { now: () => Date.now() / 1000 };
  const parts = { logger: cliLogger, clock, instanceId: `migrate:${process.pid}` };
  process.stdout.write(`Copying ${source.stateDir} into ${redactUrl(target.databaseUrl!)}\n`);
  const opened: NodeStorage[] = [];
  try {
    const from = await composeNodeStorage(source, parts);
    opened.push(from);
    const to = await composeNodeStorage(target, parts);
    opened.push(to);
    await Promise.all([from.sessions.init(), to.sessions.init()]);
    const report = await copyStorage(from, to, {
      homes: new NodeHermesHomes(source.hermesHome, env, source.hermesConfigPath),
      log: (line) => process.stdout.write(`${line}\n`),
    });
    const tallies = Object.values(report);
    const copied = tallies.reduce((n, t) => n + t.copied, 0);
    const failed = tallies.reduce((n, t) => n + t.failed, 0);
    const s = report.sessions!;
    process.stdout.write(
      `${failed ? 'Done with failures' : 'Done'} in ${((Date.now() - started) / 1000).toFixed(1)} s: ${s.copied} sessions copied, ${s.unchanged} already there, ${s.keptNewer} kept as newer in Postgres; ${copied} items copied in all${failed ? `; ${failed} FAILED (see above)` : ''}.\n`,
    );
    return failed ? 1 : 0;
  } catch (err) {
    process.stderr.write(`Migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    for (const storage of opened.reverse()) {
      await storage.sessions.dispose().catch(() => {});
      await storage.close().catch(() => {});
    }
  }
}

/** The URL without its password, for the progress line. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(the database)';
  }
}

process.exitCode = await main(process.argv.slice(2));
