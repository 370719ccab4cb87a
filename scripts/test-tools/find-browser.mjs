// @ts-check
// Where the test run finds Chrome/Chromium and ripgrep. Pure functions over an injected view of
// the machine (files, PATH, platform, environment), so the unit tests can stage any machine;
// `machine()` is the real one.
import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * @typedef {object} Machine
 * @property {Record<string, string | undefined>} env
 * @property {string} platform  process.platform
 * @property {string} arch      process.arch
 * @property {string} home
 * @property {number | undefined} uid  undefined where there are no uids
 * @property {(path: string) => boolean} isExecutable  a file this user may run
 * @property {(path: string) => string[]} listDir       [] when missing
 * @property {(path: string) => string | undefined} readText
 * @property {string | undefined} playwrightExecutable  where this playwright-core puts its own Chromium
 *
 * @typedef {{ kind: 'found', path: string, source: string }
 *   | { kind: 'invalid', message: string }
 *   | { kind: 'missing', searched: string[] }} BrowserLookup
 */

/** The usual install locations, most specific first. */
export const KNOWN_BROWSERS = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium',
    '/opt/google/chrome/chrome',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
  ],
};
/** Names looked up on PATH. */
export const BROWSER_COMMANDS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

/** @param {Machine} m */
function playwrightCacheDir(m) {
  const custom = m.env.PLAYWRIGHT_BROWSERS_PATH;
  if (custom && custom !== '0') return custom;
  if (m.platform === 'darwin') return join(m.home, 'Library', 'Caches', 'ms-playwright');
  return join(m.env.XDG_CACHE_HOME || join(m.home, '.cache'), 'ms-playwright');
}

/** Inside a Playwright `chromium-<revision>` directory, per platform (old and new layouts). @param {Machine} m */
function playwrightInner(m) {
  if (m.platform === 'darwin') {
    const cft = ['Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'];
    return [
      ['chrome-mac-arm64', ...cft],
      ['chrome-mac-x64', ...cft],
      ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'],
    ];
  }
  return [
    ['chrome-linux64', 'chrome'],
    ['chrome-linux-arm64', 'chrome'],
    ['chrome-linux', 'chrome'],
  ];
}

/** @param {string} name @param {Machine} m */
export function onPath(name, m) {
  for (const dir of (m.env.PATH ?? '').split(delimiter)) {
    if (dir && m.isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * CHROMIUM_PATH wins; then Playwright's own browsers; then the usual locations; then PATH.
 * @param {Machine} m
 * @returns {BrowserLookup}
 */
export function findBrowser(m) {
  const explicit = m.env.CHROMIUM_PATH;
  if (explicit) {
    if (m.isExecutable(explicit)) return { kind: 'found', path: explicit, source: 'CHROMIUM_PATH' };
    // An explicit choice is never replaced by a guess.
    return {
      kind: 'invalid',
      message: `CHROMIUM_PATH is ${explicit}, which is not an executable file. Point it at a Chrome or Chromium executable, or unset it so the tests find or install one.`,
    };
  }
  /** @type {string[]} */
  const searched = [];
  const cache = playwrightCacheDir(m);
  const revisions = m
    .listDir(cache)
    .filter((d) => /^chromium-\d+$/.test(d))
    .sort((a, b) => Number(b.slice(9)) - Number(a.slice(9)));
  const fromPlaywright = [
    ...(m.playwrightExecutable ? [m.playwrightExecutable] : []),
    ...revisions.flatMap((r) => playwrightInner(m).map((inner) => join(cache, r, ...inner))),
  ];
  searched.push(`Playwright's browsers in ${cache}`);
  for (const p of fromPlaywright) if (m.isExecutable(p)) return { kind: 'found', path: p, source: 'Playwright' };
  const known =
    m.platform === 'darwin'
      ? [...KNOWN_BROWSERS.darwin, ...KNOWN_BROWSERS.darwin.map((p) => join(m.home, p))]
      : m.platform === 'linux'
        ? KNOWN_BROWSERS.linux
        : [];
  searched.push(...known);
  for (const p of known) if (m.isExecutable(p)) return { kind: 'found', path: p, source: 'known location' };
  searched.push(`PATH (${BROWSER_COMMANDS.join(', ')})`);
  for (const name of BROWSER_COMMANDS) {
    const p = onPath(name, m);
    if (p) return { kind: 'found', path: p, source: 'PATH' };
  }
  return { kind: 'missing', searched };
}

/** How to get a browser by hand: the one message a run stops with. @param {string} [why] */
export function browserHelp(why) {
  return [
    `No Chrome or Chromium for the browser tests${why ? `: ${why}` : '.'}`,
    'Install one and run again: `npx playwright-core install chromium` (any OS), `apt-get install chromium` (Debian),',
    'or install Google Chrome (macOS: /Applications) - or point CHROMIUM_PATH at a Chrome/Chromium executable.',
  ].join('\n');
}

/** How to get ripgrep by hand. @param {string} [why] */
export function ripgrepHelp(why) {
  return [
    `ripgrep (rg) is not on PATH, and the search_files tests need it${why ? `: ${why}` : '.'}`,
    'Install it and run again: `apt-get install ripgrep` (Debian/Ubuntu), `brew install ripgrep` (macOS), `dnf install ripgrep` (Fedora).',
  ].join('\n');
}

/** The lookup for a suite run on its own (no provisioning): the path, or an Error with the message. @param {Machine} m */
export function requireBrowser(m) {
  const r = findBrowser(m);
  if (r.kind === 'found') return r.path;
  throw new Error(r.kind === 'invalid' ? r.message : browserHelp('`npm test` finds or installs one; run alone, a suite only looks.'));
}

/**
 * This machine. `playwrightExecutable` comes from playwright-core when it is installed.
 * @returns {Promise<Machine>}
 */
export async function machine() {
  let playwrightExecutable;
  try {
    const { chromium } = await import('playwright-core');
    playwrightExecutable = chromium.executablePath();
  } catch {
    playwrightExecutable = undefined;
  }
  return {
    env: process.env,
    platform: process.platform,
    arch: process.arch,
    home: homedir(),
    uid: process.getuid?.(),
    isExecutable(path) {
      try {
        accessSync(path, constants.X_OK);
        return statSync(path).isFile();
      } catch {
        return false;
      }
    },
    listDir(path) {
      try {
        return readdirSync(path);
      } catch {
        return [];
      }
    },
    readText(path) {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return undefined;
      }
    },
    playwrightExecutable,
  };
}
