#!/usr/bin/env node
// @ts-check
// node scripts/i18n/extract.mjs [--check]
// Reads every msg() of the web app (scripts/i18n/scan.mjs) and writes what follows from it:
//   components/i18n/translations/en/<area>.json  the English source, id → text (generated);
//   components/i18n/locales/<code>/<bundle>.ts  a language's messages in bundles, compiled from
//                                               its translations/<code>/<area>.json (written by
//                                               translators): `core` when the language is
//                                               chosen, each other bundle with the lazily loaded
//                                               screens of its areas (LAZY_BUNDLES);
//   components/i18n/locales/pseudo/<bundle>.ts  the pseudo-locale, made from the English;
//   components/i18n/locales/<code>/index.ts     the import() of each of the language's bundles;
//   components/i18n/locales/loaders.ts          the import() of each language's index.
// With --check nothing is written: it exits 1 naming each file that is not up to date.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scan } from './scan.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const i18n = join(root, 'components', 'i18n');
const translationsDir = join(i18n, 'translations');
const TARGETS = ['ar', 'cs', 'de', 'es', 'fr', 'it', 'ja', 'ko', 'pl', 'pt', 'ru', 'tr', 'vi', 'zh', 'zh-Hant'];

/**
 * The bundles loaded with a lazily loaded screen, by the areas whose messages they hold; every
 * other area's messages are in `core`, loaded when a language is chosen. A screen of these areas
 * calls loadMessages(bundle) when its code loads (tests/i18n/i18n-layer.test.ts checks that no
 * file of theirs is in the shell, where its text would show before its bundle is in).
 */
export const LAZY_BUNDLES = /** @type {const} */ ({
  onboarding: ['onboarding'],
  panels: ['panels'],
  settings: ['settings'],
  workspace: ['workspace', 'git'],
});

/** The bundle an area's messages are in. */
export function bundleOf(/** @type {string} */ area) {
  for (const [bundle, areas] of Object.entries(LAZY_BUNDLES)) if (/** @type {readonly string[]} */ (areas).includes(area)) return bundle;
  return 'core';
}

/** The bundles' names, core first. */
export const BUNDLE_NAMES = ['core', ...Object.keys(LAZY_BUNDLES).sort()];

/**
 * Messages by area (components/<area>/): an id used in two areas is in both, so each area's
 * translation files are complete on their own and translators of one area never wait on another.
 * @param {import('./scan.mjs').Message[]} messages
 */
export function byArea(messages) {
  /** @type {Map<string, Map<string, string>>} */
  const areas = new Map();
  /** @type {string[]} */
  const problems = [];
  /** @type {Map<string, import('./scan.mjs').Message>} */
  const seen = new Map();
  for (const m of messages) {
    const before = seen.get(m.id);
    if (before && before.text !== m.text) problems.push(`${m.file}:${m.line}: id ${m.id} is also ${before.file}:${before.line} with other text`);
    if (!before) seen.set(m.id, m);
    if (!areas.has(m.area)) areas.set(m.area, new Map());
    areas.get(m.area)?.set(m.id, m.text);
  }
  return { areas, problems };
}

const ACCENTS = /** @type {Record<string, string>} */ ({
  a: 'á',
  b: 'ƀ',
  c: 'ç',
  d: 'ď',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'í',
  j: 'ĵ',
  k: 'ķ',
  l: 'ļ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ö',
  p: 'þ',
  q: 'ʠ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'ü',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'Á',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ď',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Í',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ļ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ö',
  P: 'Þ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Ü',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
});

/** "Open ${0}" → "⟦Öþéñ ${0}⟧": letters accented, placeholders kept, brackets show where a message starts and ends. */
export function pseudo(/** @type {string} */ text) {
  return `⟦${text
    .split(/(\$\{\d+\})/)
    .map((part, i) => (i % 2 ? part : part.replace(/[A-Za-z]/g, (ch) => ACCENTS[ch] ?? ch)))
    .join('')}⟧`;
}

/**
 * How many characters of an id the bundles keep: the shortest prefix (at least "s" and six hex
 * digits) that still tells every message of the catalog apart. A full id is 64 random bits that
 * compress to nothing; cut, a language's core bundle is a quarter smaller.
 * @param {Iterable<string>} ids
 */
export function idLength(ids) {
  const all = [...new Set(ids)];
  for (let n = 7; n < 17; n++) if (new Set(all.map((id) => id.slice(0, n))).size === all.length) return n;
  return 17;
}

/** @param {Record<string, string>} table @param {string} note @param {number} keep */
function localeModule(table, note, keep) {
  const entries = Object.keys(table)
    .sort()
    .map((id) => `  ${id.slice(0, keep)}: ${JSON.stringify(table[id])},`);
  const body = entries.length ? `{\n${entries.join('\n')}\n}` : '{}';
  // Data only, no import: a bundle's fetch never waits on another chunk (the shell compiles it).
  return `// Generated by scripts/i18n/extract.mjs from ${note}: do not edit.\nexport const messages = ${body};\n`;
}

/** The folder of each language's bundles (the pseudo-locale's code is en-XA). */
const FOLDERS = [...TARGETS.map((code) => [code, code]), ['en-XA', 'pseudo']];

/**
 * The shell's way to a language: one import() per language, of that language's index (below), so
 * the shell holds 16 chunk names, not one per bundle.
 * @param {number} keep
 */
function loadersModule(keep) {
  const rows = FOLDERS.map(([code, folder]) => `  ${JSON.stringify(code)}: () => import('./${folder}/index.js'),`);
  return `// Generated by scripts/i18n/extract.mjs: do not edit.\nimport type { Translations } from '../compile.js';\n\n/** Where a language's messages are: \`core\` when it is chosen, the others with their screens. */\nexport const BUNDLES = ${JSON.stringify(BUNDLE_NAMES)} as const;\nexport type Bundle = (typeof BUNDLES)[number];\nexport type LocaleModule = { messages: Translations };\nexport type LocaleIndex = { bundles: Record<Bundle, () => Promise<LocaleModule>> };\n/** The bundles key each message by its id's first ${keep} characters (all the catalog's differ there). */\nexport const ID_LENGTH = ${keep};\n\nexport const loaders: Record<string, () => Promise<LocaleIndex>> = {\n${rows.join('\n')}\n};\n`;
}

/** A language's index: the import() of each of its bundles (a few hundred bytes, fetched first). */
function indexModule() {
  return `// Generated by scripts/i18n/extract.mjs: do not edit.\nexport const bundles = {\n${BUNDLE_NAMES.map((b) => `  ${b}: () => import('./${b}.js'),`).join('\n')}\n};\n`;
}

/** @param {string} file */
function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
}

/** Every file extract writes, path → content. */
export function outputs() {
  const { messages, problems: scanProblems } = scan(root);
  const { areas, problems } = byArea(messages);
  /** @type {Map<string, string>} */
  const files = new Map();
  const areaNames = [...areas.keys()].sort();
  /** @type {Record<string, string>} */
  const english = {};
  for (const area of areaNames) {
    const table = Object.fromEntries([...(areas.get(area) ?? new Map())].sort(([a], [b]) => a.localeCompare(b)));
    Object.assign(english, table);
    files.set(join(translationsDir, 'en', `${area}.json`), `${JSON.stringify(table, null, 2)}\n`);
  }
  const keep = idLength(Object.keys(english));
  /**
   * A language's table split into bundles; an id used in a core area too is in core only, one
   * used by two lazy bundles' areas is in both (a screen loads only its own).
   * @param {string} folder @param {(id: string, area: string) => string | undefined} text @param {string} note
   */
  const writeBundles = (folder, text, note) => {
    /** @type {Record<string, Record<string, string>>} */
    const bundles = Object.fromEntries(BUNDLE_NAMES.map((b) => [b, {}]));
    const order = [...areaNames].sort((a, b) => Number(bundleOf(a) !== 'core') - Number(bundleOf(b) !== 'core') || a.localeCompare(b));
    for (const area of order) {
      const bundle = /** @type {Record<string, string>} */ (bundles[bundleOf(area)]);
      for (const id of areas.get(area)?.keys() ?? []) {
        const value = text(id, area);
        // In core it is there for every screen; else in each lazy bundle whose screens use it.
        if (typeof value !== 'string' || id in (bundles.core ?? {}) || id in bundle) continue;
        bundle[id] = value;
      }
    }
    for (const bundle of BUNDLE_NAMES) files.set(join(i18n, 'locales', folder, `${bundle}.ts`), localeModule(bundles[bundle] ?? {}, note, keep));
  };
  for (const code of TARGETS) {
    /** @type {Map<string, Record<string, string>>} */
    const byFile = new Map();
    const read = (/** @type {string} */ area) => {
      if (!byFile.has(area)) byFile.set(area, readJson(join(translationsDir, code, `${area}.json`)));
      return /** @type {Record<string, string>} */ (byFile.get(area));
    };
    // A translator's text for an id shared by two areas may be in either area's file.
    writeBundles(code, (id, area) => read(area)[id] ?? areaNames.map((a) => read(a)[id]).find((t) => typeof t === 'string'), `translations/${code}/*.json`);
  }
  writeBundles('pseudo', (id) => pseudo(/** @type {string} */ (english[id])), 'the English');
  files.set(join(i18n, 'locales', 'loaders.ts'), loadersModule(keep));
  for (const [, folder] of FOLDERS) files.set(join(i18n, 'locales', /** @type {string} */ (folder), 'index.ts'), indexModule());
  return { files, problems: [...scanProblems, ...problems], english, areas };
}

/** Generated files nothing writes any more: an English area whose last message went, a bundle or language that is gone. */
function staleGenerated(/** @type {Map<string, string>} */ files) {
  /** @type {string[]} */
  const found = [];
  const walk = (/** @type {string} */ dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!files.has(path)) found.push(path);
    }
  };
  walk(join(translationsDir, 'en'));
  walk(join(i18n, 'locales'));
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  const { files, problems } = outputs();
  for (const p of problems) process.stderr.write(`${p}\n`);
  const stale = [];
  for (const [file, content] of files) {
    const now = existsSync(file) ? readFileSync(file, 'utf8') : null;
    if (now === content) continue;
    stale.push(file);
    if (!check) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
  }
  const orphans = staleGenerated(files);
  if (check && (stale.length || orphans.length)) {
    process.stderr.write(
      `not up to date (run node scripts/i18n/extract.mjs):\n${[...stale, ...orphans].map((f) => `  ${f.replace(`${root}/`, '')}`).join('\n')}\n`,
    );
  }
  // Both folders are generated: what nothing writes any more goes.
  if (!check) for (const f of orphans) rmSync(f);
  process.exit(problems.length || (check && (stale.length || orphans.length)) ? 1 : 0);
}
