// @ts-check
// The checks that keep the i18n layer whole (tests/i18n/i18n-layer.test.ts runs them):
// every language has every message with the same placeholders, and no user-facing string
// reaches a component without msg() — except the ones listed in components/i18n/loose-baseline.json,
// strings written before the layer, which only ever shrinks.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const placeholders = (/** @type {string} */ text) => [...text.matchAll(/\$\{(\d+)\}/g)].map((m) => m[1]).sort();

/**
 * What a language lacks or has wrong against the English, by area.
 * @param {Map<string, Map<string, string>>} english area → id → text
 * @param {(area: string) => Record<string, unknown> | null} translated the language's file for an area
 */
export function localeProblems(english, translated) {
  /** @type {string[]} */
  const problems = [];
  for (const [area, messages] of english) {
    const table = translated(area);
    if (!table) {
      problems.push(`${area}: no translations (${messages.size} messages)`);
      continue;
    }
    for (const [id, text] of messages) {
      const t = table[id];
      if (typeof t !== 'string' || !t.trim()) problems.push(`${area}: ${id} missing (${JSON.stringify(text)})`);
      else if (placeholders(t).join() !== placeholders(text).join())
        problems.push(`${area}: ${id} has placeholders ${placeholders(t)} where the English has ${placeholders(text)}`);
    }
    for (const id of Object.keys(table)) if (!messages.has(id)) problems.push(`${area}: ${id} is no message any more (remove it)`);
  }
  // An id is one message at run time: used in two areas, it must read the same in both.
  /** @type {Map<string, [string, string]>} */
  const first = new Map();
  for (const area of english.keys()) {
    for (const [id, t] of Object.entries(translated(area) ?? {})) {
      const before = first.get(id);
      if (!before) first.set(id, [area, String(t)]);
      else if (before[1] !== t)
        problems.push(`${area}: ${id} reads ${JSON.stringify(t)}, but ${JSON.stringify(before[1])} in ${before[0]} (one message, one text)`);
    }
  }
  return problems;
}

/** `file: text` — what the baseline lists (no line numbers: lines move). @param {import('./scan.mjs').Loose} l */
export const looseKey = (l) => `${l.file}: ${l.text}`;

/**
 * New loose strings (not in the baseline) and baseline lines no string matches any more.
 * @param {import('./scan.mjs').Loose[]} loose
 * @param {string[]} baseline
 */
export function looseProblems(loose, baseline) {
  const left = new Map();
  for (const b of baseline) left.set(b, (left.get(b) ?? 0) + 1);
  /** @type {string[]} */
  const added = [];
  for (const l of loose) {
    const key = looseKey(l);
    const n = left.get(key) ?? 0;
    if (n > 0) left.set(key, n - 1);
    else added.push(`${l.file}:${l.line}: ${l.kind} ${JSON.stringify(l.text)} does not go through msg()`);
  }
  const gone = [...left].flatMap(([key, n]) => Array(n).fill(`loose-baseline.json lists ${JSON.stringify(key)}, which is gone: remove the line`));
  return { added, gone };
}

export const BASELINE = join('components', 'i18n', 'loose-baseline.json');

/** @param {string} root */
export function readBaseline(root) {
  const file = join(root, BASELINE);
  return existsSync(file) ? /** @type {string[]} */ (JSON.parse(readFileSync(file, 'utf8'))) : [];
}

/** @param {string} root @param {import('./scan.mjs').Loose[]} loose */
export function writeBaseline(root, loose) {
  writeFileSync(join(root, BASELINE), `${JSON.stringify(loose.map(looseKey).sort(), null, 2)}\n`);
}
