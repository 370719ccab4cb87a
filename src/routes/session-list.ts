import { withServerTime } from '../http/server-time.js';
import { BODY_VARIANT_HEADER } from '../http/compression.js';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { SessionPage, StoreProblem } from '../ports/session-store.js';
import { DEFAULT_PAGE_ROWS, MAX_PAGE_ROWS, decodeCursor, encodeCursor, pageRows, type ListCursor } from '../domain/session-pages.js';
import { queryFlag, queryInt, queryIntIn, queryParams } from '../http/validate.js';
import { presenter, redactRowTitles, type Presenter } from '../http/redaction.js';
import { requestHome } from '../http/request-home.js';
import { profileScope } from '../domain/profile-scope.js';
import { cronView, type CronView } from '../domain/cron-sessions.js';
import { withoutSupersededSnapshots } from '../shared/canonical-session.js';
import { agentListMerger } from './cli-sessions.js';

const ListQuery = z
  .object({
    include_archived: queryFlag,
    all_profiles: queryFlag,
    // The sidebar's Tasks filter: only task runs (sessions with source `cron`).
    source: z.enum(['cron']).optional(),
    limit: queryIntIn(1, MAX_PAGE_ROWS),
    offset: queryInt(),
    cursor: z
      .string()
      .optional()
      .transform((v, ctx): ListCursor | undefined => {
        if (v === undefined) return undefined;
        const cursor = decodeCursor(v);
        if (!cursor) {
          ctx.addIssue({ code: 'custom', message: 'is not a cursor this server gave (use next_cursor)' });
          return z.NEVER;
        }
        return cursor;
      }),
  })
  .refine((q) => q.cursor === undefined || q.offset === undefined, { message: 'cursor and offset cannot be combined', path: ['offset'] });

const utf8 = new TextEncoder();
const BODY_VARIANTS = 32;

/**
 * The list response's bytes per query variant, for one store revision at a time: rows are
 * serialised and encoded once per change, not once per request. (So the body carries no
 * per-request field; the response's Date header gives the server's clock.) The least recently
 * asked variant goes first when a scroll through many pages fills it.
 */
class ListBodyCache {
  #revision = '';
  #byVariant = new Map<string, Uint8Array<ArrayBuffer>>();

  has(revision: string, variant: string): boolean {
    return revision === this.#revision && this.#byVariant.has(variant);
  }

  body(revision: string, variant: string, build: () => string): Uint8Array<ArrayBuffer> {
    if (revision !== this.#revision) {
      this.#revision = revision;
      this.#byVariant.clear();
    }
    let bytes = this.#byVariant.get(variant);
    if (bytes === undefined) bytes = utf8.encode(build());
    else this.#byVariant.delete(variant);
    this.#byVariant.set(variant, bytes);
    if (this.#byVariant.size > BODY_VARIANTS) this.#byVariant.delete(this.#byVariant.keys().next().value!);
    return bytes;
  }
}

/**
 * Seconds one compressed copy of an unchanged list is reused for: compressing every row again
 * each second costs more than the whole warm answer (bench/session-list.bench.mjs), and a clock
 * a few seconds old is still right for "5 min ago".
 */
const COMPRESSED_CLOCK_SECONDS = 5;

/** A cached list body with this second's server time; a compressed copy is made once per COMPRESSED_CLOCK_SECONDS. */
function listBody(c: Context, body: Uint8Array, etag: string, now: number): Response {
  return c.body(withServerTime(body, Math.floor(now)), 200, {
    'Content-Type': 'application/json; charset=utf-8',
    ETag: etag,
    [BODY_VARIANT_HEADER]: String(Math.floor(now / COMPRESSED_CLOCK_SECONDS)),
  });
}

function problemsField(problems: StoreProblem[], present: Presenter): string {
  return problems.length ? `,"unreadable_sessions":${JSON.stringify(present(problems))}` : '';
}

const rowsJson = (rows: SessionPage['rows'], present: Presenter) => JSON.stringify(present.redacting ? redactRowTitles(rows) : rows);

/**
 * `GET /api/sessions`. Without `limit`, `cursor` or `offset`: every row, exactly the
 * incumbent's shape `{sessions, total, archived_count}`. With any of them: one page of the
 * unpinned rows, `{sessions, next_cursor, total, archived_count}`, and on the first page (no
 * cursor, no offset) `pinned`, every pinned row. See docs/session-list-api.md.
 */
export function sessionListRoutes(deps: AppDeps) {
  const app = new Hono();

  // The sidebar asks for the same list again and again; its JSON is rebuilt only when the
  // store's revision moves, and a client holding the current ETag gets a bodiless 304.
  const cache = new ListBodyCache();
  // With show_cli_sessions: Hermes' own conversations in the same rows (their revision follows state.db).
  const withAgentRows = agentListMerger(deps);
  app.get('/api/sessions', async (c) => {
    const q = queryParams(c, ListQuery);
    const archived = q.include_archived ? 1 : 0;
    const present = await presenter(deps.settings);
    const redaction = present.redacting ? 'r' : 'p';
    // The active profile's rows, or every profile's (the incumbent's `all_profiles=1`).
    const active = (await requestHome(c, deps)).profile;
    const allProfiles = q.all_profiles ?? false;
    const who = allProfiles ? '*' : encodeURIComponent(active);
    // Task runs: hidden unless show_cron_sessions is on (as the incumbent), or the only rows with ?source=cron.
    const settings = await deps.settings.read();
    const view: CronView = q.source === 'cron' ? 'only' : settings.show_cron_sessions === true ? 'show' : 'hide';
    // Part of the variant and ETag (a setting change moves no revision); the default adds nothing.
    const tasksTag = view === 'hide' ? '' : `.${view}`;
    const scoped = async (page: SessionPage) => {
      const scope = await profileScope(deps.sessions, page, active, allProfiles);
      // A compression snapshot with a live continuation is listed as that tip (the one row opening resolves to).
      const tasks = cronView(withoutSupersededSnapshots(scope.rows), view);
      // Carried only when there are task sessions (or they were asked for): the incumbent's shape stays as it was.
      const count = tasks.cronCount || view === 'only' ? `,"cron_count":${tasks.cronCount}` : '';
      return { ...scope, rows: tasks.rows, fields: scope.fields + count };
    };

    if (q.limit === undefined && q.cursor === undefined && q.offset === undefined) {
      const page = await withAgentRows(c, await deps.sessions.list({ includeArchived: q.include_archived ?? false }), allProfiles, settings);
      // Turning redaction on or off changes the body, so it changes the variant (and the ETag).
      const variant = `${archived}...${redaction}.${who}${tasksTag}`;
      const etag = `W/"${page.revision}.${variant}"`;
      if (c.req.header('If-None-Match') === etag) return c.body(null, 304, { ETag: etag });
      const problems = await deps.sessions.problems();
      const scope = cache.has(page.revision, variant) ? null : await scoped(page);
      const body = cache.body(
        page.revision,
        variant,
        () =>
          `{"sessions":${rowsJson(scope!.rows, present)},"total":${scope!.rows.length},"archived_count":${scope!.archivedCount}${problemsField(problems, present)}${scope!.fields}}`,
      );
      return listBody(c, body, etag, deps.clock.now());
    }

    const list = await withAgentRows(c, await deps.sessions.list({ includeArchived: q.include_archived ?? false }), allProfiles, settings);
    // Every page of one list state shares a tag: it names the store's revision, so a client may
    // revalidate the rows it loaded, however it paged them, with one request.
    const etag = `W/"${list.revision}.${archived}.page.${redaction}.${who}${tasksTag}"`;
    if (c.req.header('If-None-Match') === etag) return c.body(null, 304, { ETag: etag });
    const limit = q.limit ?? DEFAULT_PAGE_ROWS;
    const at = q.cursor ? `c${encodeCursor(q.cursor)}` : `o${q.offset ?? 0}`;
    const variant = `${archived}.${limit}.${at}.${redaction}.${who}${tasksTag}`;
    const first = !q.cursor && !q.offset;
    const problems = first ? await deps.sessions.problems() : [];
    const scope = cache.has(list.revision, variant) ? null : await scoped(list);
    const body = cache.body(list.revision, variant, () => {
      const page = pageRows(scope!.rows, { limit, ...(q.cursor ? { cursor: q.cursor } : {}), ...(q.offset ? { offset: q.offset } : {}) });
      return (
        `{"sessions":${rowsJson(page.rows, present)}` +
        (page.pinned ? `,"pinned":${rowsJson(page.pinned, present)}` : '') +
        `,"next_cursor":${page.next ? JSON.stringify(encodeCursor(page.next)) : 'null'}` +
        `,"total":${scope!.rows.length},"archived_count":${scope!.archivedCount}${problemsField(problems, present)}${scope!.fields}}`
      );
    });
    return listBody(c, body, etag, deps.clock.now());
  });

  return app;
}
