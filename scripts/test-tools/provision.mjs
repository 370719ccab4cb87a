// @ts-check
// Makes sure the machine has what the suites need (a browser, ripgrep), installing what it can:
// Debian's packages through apt-get when running as root on Debian, Playwright's Chromium
// elsewhere. Anything it cannot get stops the run with one message saying how to get it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { browserHelp, findBrowser, onPath, ripgrepHelp } from './find-browser.mjs';

/** @typedef {import('./find-browser.mjs').Machine} Machine */
/**
 * @typedef {{ what: string[], command: string, args: string[], env?: Record<string, string> }} Step
 * @typedef {(command: string, args: string[], env: Record<string, string>) => Promise<{ code: number | null, output: string }>} Runner
 */

export class ProvisionError extends Error {}

/** Debian itself (not a derivative, whose `chromium` may be a snap shim), as root, with apt-get. @param {Machine} m */
export function isDebianRoot(m) {
  if (m.platform !== 'linux' || m.uid !== 0 || !onPath('apt-get', m)) return false;
  return /^ID="?debian"?$/m.test(m.readText('/etc/os-release') ?? '');
}

/**
 * The steps that would install what is missing, and what no step can install here.
 * @param {Machine} m
 * @param {{ browser: boolean, ripgrep: boolean }} missing
 * @param {{ node: string, playwrightCli: string }} tools
 * @returns {{ steps: Step[], unavailable: Array<'browser' | 'ripgrep'> }}
 */
export function provisionPlan(m, missing, tools) {
  const packages = [...(missing.browser ? ['chromium'] : []), ...(missing.ripgrep ? ['ripgrep'] : [])];
  if (packages.length === 0) return { steps: [], unavailable: [] };
  if (isDebianRoot(m)) {
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    return {
      steps: [
        { what: packages, command: 'apt-get', args: ['update', '-qq'], env },
        { what: packages, command: 'apt-get', args: ['install', '-y', '-qq', ...packages], env },
      ],
      unavailable: [],
    };
  }
  return {
    steps: missing.browser ? [{ what: ['chromium'], command: tools.node, args: [tools.playwrightCli, 'install', 'chromium'] }] : [],
    unavailable: missing.ripgrep ? ['ripgrep'] : [],
  };
}

/** @param {string[]} what @param {string} why */
function helpFor(what, why) {
  return [...(what.includes('chromium') ? [browserHelp(why)] : []), ...(what.includes('ripgrep') ? [ripgrepHelp(why)] : [])].join('\n');
}

/**
 * Finds, else installs and finds again, a browser and ripgrep (or only ripgrep: `browser: false`).
 * Returns their paths or throws a ProvisionError carrying the one message to print.
 * @param {{ machine: () => Promise<Machine> | Machine, run: Runner, log?: (line: string) => void, tools: { node: string, playwrightCli: string }, browser?: boolean }} deps
 * @returns {Promise<{ browser: string | undefined, ripgrep: string }>}
 */
export async function ensureTools(deps) {
  const log = deps.log ?? (() => {});
  const wantBrowser = deps.browser ?? true;
  let m = await deps.machine();
  /** @type {import('./find-browser.mjs').BrowserLookup | undefined} */
  let browser = wantBrowser ? findBrowser(m) : undefined;
  if (browser?.kind === 'invalid') throw new ProvisionError(browser.message);
  let rg = onPath('rg', m);
  if (browser?.kind !== 'missing' && rg) return { browser: browser?.kind === 'found' ? browser.path : undefined, ripgrep: rg };

  const plan = provisionPlan(m, { browser: browser?.kind === 'missing', ripgrep: !rg }, deps.tools);
  if (plan.unavailable.includes('ripgrep')) throw new ProvisionError(ripgrepHelp('it is installed automatically only as root on Debian.'));
  for (const step of plan.steps) {
    log(`installing ${step.what.join(' and ')}: ${[step.command === deps.tools.node ? 'node' : step.command, ...step.args].join(' ')}`);
    let result;
    try {
      result = await deps.run(step.command, step.args, step.env ?? {});
    } catch (err) {
      result = { code: null, output: err instanceof Error ? err.message : String(err) };
    }
    if (result.code !== 0) {
      const tail = result.output.trim().split('\n').slice(-5).join('\n');
      throw new ProvisionError(
        helpFor(
          step.what,
          `installing it failed (${step.command} ${step.args.join(' ')} exited ${result.code})${tail ? `:\n${tail.replace(/^/gm, '  ')}` : '.'}`,
        ),
      );
    }
  }
  m = await deps.machine();
  browser = wantBrowser ? findBrowser(m) : undefined;
  rg = onPath('rg', m);
  if (browser && browser.kind !== 'found')
    throw new ProvisionError(browser.kind === 'invalid' ? browser.message : browserHelp('none found after installing one.'));
  if (!rg) throw new ProvisionError(ripgrepHelp('not found after installing it.'));
  return { browser: browser?.kind === 'found' ? browser.path : undefined, ripgrep: rg };
}

/** Runs a command, output captured (apt's and Playwright's progress is noise unless it fails). @type {Runner} */
export function runCaptured(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The real tools: this Node and the project's playwright-core CLI. @param {string} root */
export function defaultTools(root) {
  return { node: process.execPath, playwrightCli: join(root, 'node_modules', 'playwright-core', 'cli.js') };
}
