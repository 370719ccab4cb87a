#!/usr/bin/env node
// @ts-check
// npm test: everything a change must pass, on a fresh machine as on a laptop.
// 1. a browser and ripgrep, found or installed (or one message saying how to get them);
// 2. typecheck, lint (when package.json has it), vitest, the component suite in Chromium;
// 3. after each suite, no process of this run may be left (they are killed and named);
// 4. the last line sums every suite: "Tests: N passed, M failed, K skipped".
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COUNTS_ENV, formatCounts } from './test-tools/counts.mjs';
import { machine } from './test-tools/find-browser.mjs';
import { describeSurvivors, reapMarked, reapRecorded, REGISTRY_ENV, RUN_ENV } from './test-tools/processes.mjs';
import { defaultTools, ensureTools, ProvisionError, runCaptured } from './test-tools/provision.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (/** @type {string} */ line) => process.stdout.write(`[npm test] ${line}\n`);

let tools;
try {
  tools = await ensureTools({ machine, run: runCaptured, tools: defaultTools(root), log: say });
} catch (err) {
  if (!(err instanceof ProvisionError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
say(`browser ${tools.browser}, ripgrep ${tools.ripgrep}`);

const work = mkdtempSync(join(tmpdir(), 'hermes-npm-test-'));
const marker = randomUUID();
/** Every process of the run inherits these: the browser, the leak registry, the run's marker. */
const env = { ...process.env, CHROMIUM_PATH: tools.browser ?? '', [RUN_ENV]: marker, [REGISTRY_ENV]: join(work, 'processes') };

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Under npm, npm_execpath is npm's own CLI: the same npm runs the scripts.
const npm = process.env.npm_execpath ? { command: process.execPath, args: [process.env.npm_execpath] } : { command: 'npm', args: [] };
/** @type {Array<{ name: string, command: string, args: string[], counted: boolean }>} */
const steps = [
  { name: 'typecheck', command: npm.command, args: [...npm.args, 'run', 'typecheck'], counted: false },
  ...(pkg.scripts?.lint ? [{ name: 'lint', command: npm.command, args: [...npm.args, 'run', 'lint'], counted: false }] : []),
  { name: 'vitest', command: process.execPath, args: [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], counted: true },
  { name: 'components', command: process.execPath, args: [join(root, 'node_modules', '@web', 'test-runner', 'dist', 'bin.js')], counted: true },
];

/** @type {import('node:child_process').ChildProcess | undefined} */
let current;
let interrupted = false;
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    // The terminal sent Ctrl-C to the suite as well; give it time to stop its own children.
    interrupted = true;
    const child = current;
    if (child) setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 10_000).unref();
  });
}

/** @param {string} command @param {string[]} args @param {NodeJS.ProcessEnv} stepEnv @returns {Promise<number | null>} */
function run(command, args, stepEnv) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: stepEnv, stdio: 'inherit' });
    current = child;
    child.on('error', (err) => {
      process.stderr.write(`${command}: ${err.message}\n`);
      resolve(null);
    });
    child.on('exit', (code) => resolve(code));
  });
}

const total = { passed: 0, failed: 0, skipped: 0 };
/** @type {string[]} */
const report = [];
/** Every suite's failed tests by name, printed again last: a long log is often read from its tail. */
/** @type {string[]} */
const failures = [];
for (const step of steps) {
  if (interrupted) break;
  say(`${step.name}: ${[step.command === process.execPath ? 'node' : step.command, ...step.args.map((a) => a.replace(root + '/', ''))].join(' ')}`);
  const countsFile = join(work, `${step.name}.json`);
  const code = await run(step.command, step.args, { ...env, [COUNTS_ENV]: countsFile });
  current = undefined;
  let line;
  if (step.counted) {
    const counts = existsSync(countsFile) ? JSON.parse(readFileSync(countsFile, 'utf8')) : undefined;
    if (counts) {
      total.passed += counts.passed;
      total.failed += counts.failed;
      total.skipped += counts.skipped;
      for (const f of counts.failures ?? []) failures.push(`  ${step.name}: ${f}`);
    }
    // A suite that failed without a failed test (it crashed, its teardown threw) is one failure.
    const unexplained = code !== 0 && (!counts || counts.failed === 0);
    if (unexplained) total.failed++;
    line = counts ? formatCounts(counts) : 'reported no counts';
    if (unexplained) line += ` (exited ${code}: 1 failure counted)`;
  } else {
    if (code !== 0) total.failed++;
    line = code === 0 ? 'passed' : `failed (exited ${code}: 1 failure counted)`;
  }
  // Nothing the suite started may outlive it, whatever failed.
  const survivors = [...reapRecorded(env[REGISTRY_ENV]), ...(await reapMarked(marker))];
  if (survivors.length) {
    total.failed++;
    process.stderr.write(`\n[npm test] ${step.name} left ${survivors.length} process(es) running (now killed):\n${describeSurvivors(survivors)}\n`);
    line += `; left ${survivors.length} process(es) running: 1 failure counted`;
  }
  report.push(`  ${step.name.padEnd(11)} ${line}`);
}
rmSync(work, { recursive: true, force: true });

process.stdout.write(`\n[npm test] ${interrupted ? 'interrupted' : 'done'}:\n${report.join('\n')}\n`);
if (failures.length) process.stdout.write(`[npm test] failed:\n${failures.join('\n')}\n`);
if (interrupted && total.failed === 0) total.failed++;
process.stdout.write(`Tests: ${formatCounts(total)}\n`);
process.exit(total.failed > 0 ? 1 : 0);
