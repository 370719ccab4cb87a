import { describe, expect, it } from 'vitest';
import type { Machine } from '../../scripts/test-tools/find-browser.mjs';
import { ensureTools, isDebianRoot, ProvisionError, provisionPlan, type Runner } from '../../scripts/test-tools/provision.mjs';
import { DEBIAN, fakeMachine, UBUNTU } from './machine.js';

const tools = { node: '/usr/local/bin/node', playwrightCli: '/repo/node_modules/playwright-core/cli.js' };
const APT = '/usr/bin/apt-get';
const RG = '/usr/bin/rg';
const PW = '/root/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome';

/** A runner that records the commands and, on success, "installs" by adding files to the machine. */
function fakeRunner(installs: Record<string, string[]>, fail?: { code: number | null; output: string } | Error) {
  const calls: string[] = [];
  const installed: string[] = [];
  const run: Runner = async (command, args, env) => {
    calls.push([command, ...args].join(' ') + (env.DEBIAN_FRONTEND ? ` [${env.DEBIAN_FRONTEND}]` : ''));
    if (fail instanceof Error) throw fail;
    if (fail) return fail;
    installed.push(...(installs[args.join(' ')] ?? []));
    return { code: 0, output: '' };
  };
  return { calls, installed, run };
}

/** A machine that changes after the runner installs something. */
function machineAfter(base: Parameters<typeof fakeMachine>[0], installed: string[]): () => Machine {
  return () => fakeMachine({ ...base, files: [...(base?.files ?? []), ...installed] });
}

describe('isDebianRoot', () => {
  it('is Debian itself, as root, with apt-get', () => {
    expect(isDebianRoot(fakeMachine({ uid: 0, osRelease: DEBIAN, files: [APT] }))).toBe(true);
    expect(isDebianRoot(fakeMachine({ uid: 1000, osRelease: DEBIAN, files: [APT] }))).toBe(false);
    expect(isDebianRoot(fakeMachine({ uid: 0, osRelease: UBUNTU, files: [APT] }))).toBe(false);
    expect(isDebianRoot(fakeMachine({ uid: 0, osRelease: DEBIAN, files: [] }))).toBe(false);
    expect(isDebianRoot(fakeMachine({ platform: 'darwin', uid: 0, osRelease: DEBIAN, files: [APT] }))).toBe(false);
  });
});

describe('provisionPlan', () => {
  it('on Debian as root: apt-get update first, then one install of whatever is missing', () => {
    const plan = provisionPlan(fakeMachine({ uid: 0, osRelease: DEBIAN, files: [APT] }), { browser: true, ripgrep: true }, tools);
    expect(plan.steps.map((s) => [s.command, ...s.args].join(' '))).toEqual(['apt-get update -qq', 'apt-get install -y -qq chromium ripgrep']);
    expect(plan.steps[1]!.env).toEqual({ DEBIAN_FRONTEND: 'noninteractive' });
    expect(plan.unavailable).toEqual([]);
  });

  it("elsewhere: Playwright's Chromium; ripgrep cannot be installed", () => {
    const plan = provisionPlan(fakeMachine({ uid: 1000, osRelease: UBUNTU, files: [APT] }), { browser: true, ripgrep: true }, tools);
    expect(plan.steps.map((s) => [s.command, ...s.args].join(' '))).toEqual([`${tools.node} ${tools.playwrightCli} install chromium`]);
    expect(plan.unavailable).toEqual(['ripgrep']);
    expect(provisionPlan(fakeMachine(), { browser: false, ripgrep: false }, tools)).toEqual({ steps: [], unavailable: [] });
  });
});

describe('ensureTools', () => {
  it('installs nothing when both are there', async () => {
    const r = fakeRunner({});
    const m = fakeMachine({ uid: 0, osRelease: DEBIAN, files: [APT, RG, '/usr/bin/chromium'] });
    expect(await ensureTools({ machine: () => m, run: r.run, tools })).toEqual({ browser: '/usr/bin/chromium', ripgrep: RG });
    expect(r.calls).toEqual([]);
  });

  it('on a fresh Debian as root: apt-get installs chromium and ripgrep, then they are found', async () => {
    const r = fakeRunner({ 'install -y -qq chromium ripgrep': ['/usr/bin/chromium', RG] });
    const log: string[] = [];
    const got = await ensureTools({
      machine: machineAfter({ uid: 0, osRelease: DEBIAN, files: [APT] }, r.installed),
      run: r.run,
      tools,
      log: (l) => log.push(l),
    });
    expect(got).toEqual({ browser: '/usr/bin/chromium', ripgrep: RG });
    expect(r.calls).toEqual(['apt-get update -qq [noninteractive]', 'apt-get install -y -qq chromium ripgrep [noninteractive]']);
    expect(log[0]).toBe('installing chromium and ripgrep: apt-get update -qq');
  });

  it('not root (a laptop): Playwright installs its Chromium', async () => {
    const r = fakeRunner({ [`${tools.playwrightCli} install chromium`]: [PW] });
    const base = { uid: 1000, home: '/root', osRelease: DEBIAN, files: [APT, RG], playwrightExecutable: PW };
    expect(await ensureTools({ machine: machineAfter(base, r.installed), run: r.run, tools })).toEqual({ browser: PW, ripgrep: RG });
    expect(r.calls).toEqual([`${tools.node} ${tools.playwrightCli} install chromium`]);
  });

  it('stops with the one message when installing fails, naming the command and its last output', async () => {
    const r = fakeRunner({}, { code: 100, output: 'Reading package lists...\nE: Unable to locate package chromium\n' });
    const err = await ensureTools({ machine: () => fakeMachine({ uid: 0, osRelease: DEBIAN, files: [APT, RG] }), run: r.run, tools }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProvisionError);
    expect((err as Error).message).toMatch(
      /^No Chrome or Chromium for the browser tests: installing it failed \(apt-get update -qq exited 100\):\n {2}Reading package lists\.\.\.\n {2}E: Unable to locate package chromium\nInstall one/,
    );
    expect((err as Error).message).toMatch(/npx playwright-core install chromium/);
    expect(r.calls).toHaveLength(1);
  });

  it('stops with the message when the installer cannot even start, or installs nothing findable', async () => {
    const enoent = fakeRunner({}, new Error('spawn apt-get ENOENT'));
    await expect(ensureTools({ machine: () => fakeMachine({ uid: 0, osRelease: DEBIAN, files: [APT, RG] }), run: enoent.run, tools })).rejects.toThrow(
      /exited null\):\n {2}spawn apt-get ENOENT/,
    );
    const nothing = fakeRunner({});
    await expect(ensureTools({ machine: () => fakeMachine({ files: [RG] }), run: nothing.run, tools })).rejects.toThrow(
      /^No Chrome or Chromium for the browser tests: none found after installing one\./,
    );
  });

  it('without ripgrep off Debian-as-root: stops at once saying how to install it, installing nothing', async () => {
    const r = fakeRunner({});
    const err = ensureTools({
      machine: () => fakeMachine({ platform: 'darwin', uid: 501, files: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'] }),
      run: r.run,
      tools,
    });
    await expect(err).rejects.toThrow(
      /^ripgrep \(rg\) is not on PATH, and the search_files tests need it: it is installed automatically only as root on Debian\.\n.*brew install ripgrep/,
    );
    expect(r.calls).toEqual([]);
  });

  it('checks only ripgrep when asked (the vitest setup), and never installs over a bad CHROMIUM_PATH', async () => {
    const r = fakeRunner({ 'install -y -qq ripgrep': [RG] });
    expect(await ensureTools({ machine: machineAfter({ uid: 0, osRelease: DEBIAN, files: [APT] }, r.installed), run: r.run, tools, browser: false })).toEqual({
      browser: undefined,
      ripgrep: RG,
    });
    expect(r.calls).toEqual(['apt-get update -qq [noninteractive]', 'apt-get install -y -qq ripgrep [noninteractive]']);
    const bad = fakeRunner({});
    await expect(
      ensureTools({ machine: () => fakeMachine({ uid: 0, osRelease: DEBIAN, env: { CHROMIUM_PATH: '/nonexistent' }, files: [APT] }), run: bad.run, tools }),
    ).rejects.toThrow(/CHROMIUM_PATH is \/nonexistent/);
    expect(bad.calls).toEqual([]);
  });
});
