// @ts-check
// A real PostgreSQL server for the test run: Debian's `postgresql` package (installed through
// apt-get as root on Debian when missing), started in a temp dir on a free loopback port with a
// clean environment, so the leak check never mistakes it for a test's child. Stopped after the run.
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDebianRoot, ProvisionError } from './provision.mjs';

/** @typedef {import('./find-browser.mjs').Machine} Machine */

/** The directory holding initdb and pg_ctl: Debian's newest /usr/lib/postgresql/<n>/bin, else one on PATH. @param {Machine} m */
export function findPostgresBin(m) {
  const versions = m
    .listDir('/usr/lib/postgresql')
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = `/usr/lib/postgresql/${v}/bin`;
    if (m.isExecutable(`${bin}/initdb`) && m.isExecutable(`${bin}/pg_ctl`)) return bin;
  }
  for (const dir of (m.env.PATH ?? '').split(':').filter(Boolean)) {
    if (m.isExecutable(join(dir, 'initdb')) && m.isExecutable(join(dir, 'pg_ctl'))) return dir;
  }
  return undefined;
}

/** @param {string} why */
export function postgresHelp(why) {
  return `PostgreSQL is needed by the tests of the postgres storage (${why})\n  Install it (Debian: apt-get install postgresql) so initdb and pg_ctl are on PATH or under /usr/lib/postgresql/<version>/bin.`;
}

/**
 * Finds PostgreSQL's binaries, installing Debian's package first when missing and allowed.
 * @param {{ machine: () => Promise<Machine> | Machine, run: import('./provision.mjs').Runner, log?: (line: string) => void }} deps
 * @returns {Promise<string>}
 */
export async function ensurePostgres(deps) {
  let m = await deps.machine();
  let bin = findPostgresBin(m);
  if (bin) return bin;
  if (!isDebianRoot(m)) throw new ProvisionError(postgresHelp('it is installed automatically only as root on Debian.'));
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'postgresql'],
  ]) {
    deps.log?.(`installing postgresql: apt-get ${args.join(' ')}`);
    const result = await deps.run('apt-get', args, env);
    if (result.code !== 0) throw new ProvisionError(postgresHelp(`apt-get ${args.join(' ')} exited ${result.code}`));
  }
  m = await deps.machine();
  bin = findPostgresBin(m);
  if (!bin) throw new ProvisionError(postgresHelp('not found after installing it.'));
  return bin;
}

/** A free loopback port. @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The uid/gid the server runs as: itself unless root (initdb refuses root), then `postgres` or `nobody`. */
function serverUser() {
  if (process.getuid?.() !== 0) return {};
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      return { uid, gid };
    } catch {}
  }
  throw new ProvisionError(postgresHelp('running as root needs a `postgres` or `nobody` user to run the server as.'));
}

/** @param {string} command @param {string[]} args @param {object} options @returns {Promise<void>} */
function runQuiet(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output.trim()}`))));
  });
}

/**
 * Starts a throwaway server (trust auth on 127.0.0.1, fsync off: nothing here must survive the
 * machine) and returns the admin URL and how to stop it.
 * @param {string} bin
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
export async function startPostgres(bin) {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-test-pg-'));
  const user = serverUser();
  if (user.uid !== undefined) chownSync(dir, user.uid, /** @type {number} */ (user.gid));
  const data = join(dir, 'data');
  // A clean environment: neither the run's marker nor a locale the server may not have.
  const options = { ...user, cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' } };
  await runQuiet(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'], options);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=400',
  ].join(' ');
  await runQuiet(join(bin, 'pg_ctl'), ['-D', data, '-o', settings, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start'], options);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await runQuiet(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], options).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
