// @ts-check
// Proof that a test run leaves no process behind. Two nets:
// - a registry: the spawn helpers write one file per child (pid, start time, label) into the
//   directory named by HERMES_TEST_PROCESSES; a teardown kills whichever is still alive and names it;
// - a marker: every process of a run carries HERMES_TEST_RUN=<id> in its environment (children
//   inherit it), so after each suite the orchestrator finds survivors the registry never saw
//   (a browser's helpers, a command the server ran, an orphan of a crashed worker).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const REGISTRY_ENV = 'HERMES_TEST_PROCESSES';
export const RUN_ENV = 'HERMES_TEST_RUN';

/**
 * @typedef {{ pid: number, start: string, group: boolean, label: string, owner: number }} ChildRecord
 * @typedef {{ pid: number, label: string }} Survivor
 */

/** The environment entries a spawn helper adds to a child's (explicit) environment. */
export function runEnv(env = process.env) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const k of [RUN_ENV, REGISTRY_ENV]) if (env[k]) out[k] = /** @type {string} */ (env[k]);
  return out;
}

/**
 * A live process's identity (its start time) or null when it is gone or a zombie: a pid can be
 * reused, and an orphan zombie in a container without an init is dead though `kill -0` finds it.
 * @param {number} pid
 * @returns {{ start: string, command: string } | null}
 */
export function processIdentity(pid) {
  if (existsSync('/proc/self/stat')) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // "pid (comm) state ppid ..." - comm may hold spaces and parentheses, so split after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || fields[0] === 'X') return null;
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      return { start: fields[19] ?? '', command };
    } catch {
      return null;
    }
  }
  try {
    const line = execFileSync('ps', ['-o', 'stat=,lstart=,command=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    if (!line || line.startsWith('Z')) return null;
    const [, ...rest] = line.split(/\s+/);
    return { start: rest.slice(0, 5).join(' '), command: rest.slice(5).join(' ') };
  } catch {
    return null;
  }
}

/**
 * Notes a child a test started. `group`: it leads its own process group (spawned detached),
 * so a kill takes everything it started with it.
 * @param {{ pid?: number | undefined }} child
 * @param {string} label
 * @param {{ group?: boolean, env?: NodeJS.ProcessEnv }} [options]
 */
export function recordChild(child, label, options = {}) {
  const dir = (options.env ?? process.env)[REGISTRY_ENV];
  if (!dir || !child.pid) return;
  const identity = processIdentity(child.pid);
  if (!identity) return; // already gone
  /** @type {ChildRecord} */
  const record = { pid: child.pid, start: identity.start, group: options.group ?? false, label, owner: process.pid };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${child.pid}.json`), JSON.stringify(record));
}

/** @param {string} dir @returns {ChildRecord[]} */
function readRegistry(dir) {
  /** @type {ChildRecord[]} */
  const records = [];
  let names = [];
  try {
    names = readdirSync(dir);
  } catch {
    return records;
  }
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    try {
      records.push(JSON.parse(readFileSync(join(dir, name), 'utf8')));
    } catch {
      /* a record being written right now: its owner is alive and checks it itself */
    }
  }
  return records;
}

/** Parent pid -> child pids, from /proc (Linux; elsewhere empty). @returns {Map<number, number[]>} */
function processTree() {
  /** @type {Map<number, number[]>} */
  const children = new Map();
  if (!existsSync('/proc/self/stat')) return children;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      /* gone meanwhile */
    }
  }
  return children;
}

/** The direct children of `pid` (Linux; elsewhere none). @param {number} pid */
export function childrenOf(pid) {
  return processTree().get(pid) ?? [];
}

/** Every live descendant of `pid` (Linux; elsewhere none are found and only `pid`'s group is reached). @param {number} pid @returns {number[]} */
export function descendants(pid) {
  const children = processTree();
  /** @type {number[]} */
  const out = [];
  const walk = (/** @type {number} */ p) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** SIGKILL for `pid`, its descendants and (when it leads one) its process group. @param {number} pid @param {boolean} group */
export function killTree(pid, group) {
  const all = [...descendants(pid), pid];
  if (group) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* the group is gone */
    }
  }
  for (const p of all) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/**
 * Kills every recorded child still alive (optionally only those `owner` started) and returns them;
 * the records of children that are gone are removed.
 * @param {string} dir
 * @param {{ owner?: number }} [options]
 * @returns {Survivor[]}
 */
export function reapRecorded(dir, options = {}) {
  /** @type {Survivor[]} */
  const survivors = [];
  for (const r of readRegistry(dir)) {
    if (options.owner !== undefined && r.owner !== options.owner) continue;
    const now = processIdentity(r.pid);
    if (now && now.start === r.start) {
      survivors.push({ pid: r.pid, label: r.label });
      killTree(r.pid, r.group);
    }
    rmSync(join(dir, `${r.pid}.json`), { force: true });
  }
  return survivors;
}

/**
 * Processes carrying `HERMES_TEST_RUN=<marker>` in their environment, except `exclude`.
 * Linux reads /proc; elsewhere BSD `ps` prints environments with `e`.
 * @param {string} marker
 * @param {number[]} exclude
 * @returns {Survivor[]}
 */
export function findMarked(marker, exclude = [process.pid]) {
  const needle = `${RUN_ENV}=${marker}`;
  /** @type {Survivor[]} */
  const found = [];
  if (existsSync('/proc/self/environ')) {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name) || exclude.includes(Number(name))) continue;
      try {
        if (!readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(needle)) continue;
        const identity = processIdentity(Number(name));
        if (identity) found.push({ pid: Number(name), label: identity.command });
      } catch {
        /* gone, or not ours to read */
      }
    }
    return found;
  }
  const out = execFileSync('ps', ['-axeww', '-o', 'pid=,command='], { encoding: 'utf8' });
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!m || exclude.includes(Number(m[1])) || !m[2]?.split(/\s+/).includes(needle)) continue;
    found.push({ pid: Number(m[1]), label: m[2].slice(0, m[2].indexOf(needle)).trim() });
  }
  return found;
}

/**
 * After a suite ended: waits up to `graceMs` for marked processes to exit on their own (a tool's
 * helper notices its parent is gone), then kills the rest and returns them.
 * @param {string} marker
 * @param {{ graceMs?: number, exclude?: number[] }} [options]
 * @returns {Promise<Survivor[]>}
 */
export async function reapMarked(marker, options = {}) {
  const deadline = Date.now() + (options.graceMs ?? 5000);
  for (;;) {
    const found = findMarked(marker, options.exclude);
    if (found.length === 0) return [];
    if (Date.now() >= deadline) {
      for (const s of found) killTree(s.pid, false);
      return found;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** "pid 123 (dist/server.js, started by tests/e2e/x.test.ts)" lines for a failure message. @param {Survivor[]} survivors */
export function describeSurvivors(survivors) {
  return survivors.map((s) => `  pid ${s.pid}: ${s.label}`).join('\n');
}
