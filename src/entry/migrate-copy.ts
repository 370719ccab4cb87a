import type { NodeStorage } from './node-storage.js';
import type { HermesHomes } from '../ports/hermes-home.js';
import type { VapidKeys } from '../ports/push.js';
import type { Session } from '../shared/session.js';
import type { RunEvent } from '../runs/events.js';
import type { RunJournal, TurnCheckpoint } from '../runs/journal.js';

/**
 * What the import can use beyond the ports, where a target store has it (the Postgres stores
 * do): a session written as it is (timestamps kept, replacing an older copy), the server's own
 * keys set instead of generated, a whole journal in one transaction.
 */
interface SessionImport {
  importSession(session: Session): Promise<unknown>;
}
interface AuthKeyImport {
  importKey(name: 'signing' | 'pbkdf2', key: Uint8Array): Promise<'copied' | 'unchanged' | 'kept'>;
}
interface VapidImport {
  importVapidKeys(keys: VapidKeys): Promise<'copied' | 'unchanged' | 'kept'>;
}
interface JournalImport {
  importJournal(sessionId: string, streamId: string, record: { events: RunEvent[]; checkpoint: TurnCheckpoint | null }): Promise<number>;
}
/** A source journal that can say which journals it holds (the state dir's). */
interface JournalListing {
  list(): Promise<Array<{ sessionId: string; streamId: string }>>;
}
const has = <T>(value: unknown, method: keyof T): value is T => typeof (value as Record<PropertyKey, unknown>)?.[method as PropertyKey] === 'function';

/** One line per part: how many were copied, left as they were, and kept because the target's copy is newer. */
export interface CopyTally {
  copied: number;
  unchanged: number;
  keptNewer: number;
  failed: number;
}
export type CopyReport = Record<string, CopyTally>;

const PAGE = 500;

/** Counts one import outcome: `kept` means the target's own, different value stays. */
function count(t: CopyTally, outcome: 'copied' | 'unchanged' | 'kept'): void {
  if (outcome === 'copied') t.copied += 1;
  else if (outcome === 'unchanged') t.unchanged += 1;
  else t.keptNewer += 1;
}
/** Equal as JSON whatever the key order (a database may give a session's keys in another order). */
const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** JSON with every object's keys sorted: two values with the same content give the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * Copies one storage into another through the ports. Safe to run again: nothing is duplicated
 * and nothing already in the target is overwritten, except a session whose source copy is newer
 * (a later `updated_at`) than the target's — a session changed in the target since is kept.
 * Settings keys, projects, workspaces, tokens and subscriptions the target already has are kept;
 * the ones it lacks are added. Journals gain the events they lack.
 */
export async function copyStorage(
  from: NodeStorage,
  to: NodeStorage,
  options: { homes?: HermesHomes; log?: (line: string) => void } = {},
): Promise<CopyReport> {
  const log = options.log ?? (() => {});
  const report: CopyReport = {};
  const tally = (part: string) => (report[part] ??= { copied: 0, unchanged: 0, keptNewer: 0, failed: 0 });

  // Sessions: every one, archived too, read whole and written whole.
  const sessions = tally('sessions');
  for (let offset = 0; ; offset += PAGE) {
    const page = await from.sessions.list({ includeArchived: true, limit: PAGE, offset });
    for (const row of page.rows) {
      try {
        const session = await from.sessions.get(row.session_id);
        if (!session) continue;
        sessions[await copySession(session, to)] += 1;
      } catch (err) {
        sessions.failed += 1;
        log(`  session ${row.session_id}: ${String(err)}`);
      }
    }
    if (offset + PAGE >= page.total) break;
    log(`  sessions: ${Math.min(offset + PAGE, page.total)} of ${page.total}`);
  }
  for (const problem of await from.sessions.problems()) {
    sessions.failed += 1;
    log(`  session ${problem.session_id} is unreadable in the source, not copied: ${problem.error}`);
  }
  log(line('sessions', sessions));

  const settings = tally('settings');
  const [source, target] = await Promise.all([from.settings.read(), to.settings.read()]);
  const missing = Object.keys(source).filter((k) => !(k in target));
  if (missing.length) await to.settings.write({ ...target, ...Object.fromEntries(missing.map((k) => [k, source[k]])) });
  settings.copied = missing.length;
  settings.unchanged = Object.keys(source).length - missing.length;
  log(line('settings keys', settings));

  const projects = tally('projects');
  for (const project of await from.projects.list()) {
    if (await to.projects.get(project.project_id)) projects.unchanged += 1;
    else {
      await to.projects.create(project);
      projects.copied += 1;
    }
  }
  log(line('projects', projects));

  const workspaces = tally('workspaces');
  await copyWorkspaces(from.workspaces, to.workspaces, workspaces);
  for (const profile of (await options.homes?.list()) ?? []) {
    if (profile === 'default') continue;
    const home = await options.homes!.get(profile);
    await copyWorkspaces(from.workspacesFor(home), to.workspacesFor(home), workspaces);
  }
  log(line('workspaces', workspaces));

  const auth = tally('auth');
  if (has<AuthKeyImport>(to.auth, 'importKey')) {
    for (const name of ['signing', 'pbkdf2'] as const) count(auth, await to.auth.importKey(name, await from.auth.key(name)));
  } else log('  auth keys: the target cannot take them (everyone signs in again)');
  const signIns: Array<[string, number]> = [];
  // pruneSessions is the port's one walk over the sign-in sessions: it keeps every one.
  await from.auth.pruneSessions((token, expiresAt) => {
    signIns.push([token, expiresAt]);
    return true;
  });
  for (const [token, expiresAt] of signIns) {
    if ((await to.auth.sessionExpiry(token)) !== null) auth.unchanged += 1;
    else {
      await to.auth.putSession(token, expiresAt);
      auth.copied += 1;
    }
  }
  log(line('auth keys and sign-in sessions', auth));

  const embeds = tally('embed tokens');
  for (const record of await from.embedTokens.list()) {
    if (await to.embedTokens.get(record.id)) embeds.unchanged += 1;
    else {
      await to.embedTokens.put(record);
      embeds.copied += 1;
    }
  }
  log(line('embed tokens', embeds));

  // Share links keep working after the move: same tokens, same snapshots, stopped ones stay stopped.
  const shares = tally('share links');
  for (const record of await from.shares.list()) {
    if (await to.shares.get(record.token)) shares.unchanged += 1;
    else {
      await to.shares.put(record);
      shares.copied += 1;
    }
  }
  log(line('share links', shares));

  const push = tally('push');
  // A subscription is bound to the server's VAPID key: without the key it is useless.
  if (has<VapidImport>(to.pushStore, 'importVapidKeys')) {
    const pair = await to.pushStore.importVapidKeys(await from.pushStore.vapidKeys());
    count(push, pair);
    // Subscriptions made for another key pair cannot be sent with the database's.
    if (pair === 'kept') log("  push: the database has its own VAPID key pair; the state dir's subscriptions are not copied");
    const known = new Set((await to.pushStore.list()).map((s) => s.endpoint));
    for (const sub of pair === 'kept' ? [] : await from.pushStore.list()) {
      if (known.has(sub.endpoint)) push.unchanged += 1;
      else {
        await to.pushStore.put(sub);
        push.copied += 1;
      }
    }
  } else log('  push: the target cannot take the VAPID keys, so subscriptions are not copied');
  log(line('push keys and subscriptions', push));

  const journals = tally('run journals');
  await copyJournals(from.journal, to.journal, journals, log);
  log(line('run journals', journals));
  return report;
}

async function copySession(session: Session, to: NodeStorage): Promise<'copied' | 'unchanged' | 'keptNewer'> {
  const existing = await to.sessions.get(session.session_id);
  if (existing && same(existing, session)) return 'unchanged';
  if (existing && existing.updated_at > session.updated_at) return 'keptNewer';
  if (has<SessionImport>(to.sessions, 'importSession')) await to.sessions.importSession(session);
  else {
    // A store without an import keeps what create() is given, timestamps included.
    if (existing) await to.sessions.delete(session.session_id);
    await to.sessions.create(session);
  }
  return 'copied';
}

async function copyWorkspaces(from: NodeStorage['workspaces'], to: NodeStorage['workspaces'], tally: CopyTally) {
  const [source, target] = await Promise.all([from.list(), to.list()]);
  const known = new Set(target.map((w) => w.path));
  const added = source.filter((w) => !known.has(w.path));
  if (added.length) await to.save([...target, ...added]);
  tally.copied += added.length;
  tally.unchanged += source.length - added.length;
  const last = await from.getLast();
  if (last && !(await to.getLast())) await to.setLast(last);
}

async function copyJournals(from: RunJournal, to: RunJournal, tally: CopyTally, log: (line: string) => void) {
  if (!has<JournalListing>(from, 'list')) {
    log('  run journals: the source cannot list its journals, none copied');
    return;
  }
  for (const { sessionId, streamId } of await from.list()) {
    try {
      const record = await from.read(streamId, sessionId);
      if (!record) continue;
      if (has<JournalImport>(to, 'importJournal')) {
        const added = await to.importJournal(sessionId, streamId, record);
        tally[added ? 'copied' : 'unchanged'] += 1;
        continue;
      }
      if (await to.read(streamId, sessionId)) {
        tally.unchanged += 1;
        continue;
      }
      const w = to.open(sessionId, streamId);
      for (const e of record.events) w.append(e);
      if (record.checkpoint) await w.checkpoint(record.checkpoint);
      await w.close();
      tally.copied += 1;
    } catch (err) {
      tally.failed += 1;
      log(`  run journal ${sessionId}/${streamId}: ${String(err)}`);
    }
  }
}

const line = (what: string, t: CopyTally) =>
  `${what}: ${t.copied} copied, ${t.unchanged} already there${t.keptNewer ? `, ${t.keptNewer} kept (newer in the target)` : ''}${t.failed ? `, ${t.failed} FAILED` : ''}`;
