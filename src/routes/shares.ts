import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadRequest, NotAvailable } from '../ports/errors.js';
import type { ShareRecord, ShareStore } from '../ports/share-store.js';
import type { Session } from '../shared/session.js';
import { acceptedLanguages, chooseLocale, directionOf, type LocaleCode } from '../shared/locales.js';
import { fillText, pageTexts } from '../shared/page-texts.js';
import { jsonBody } from '../http/validate.js';
import { presenter } from '../http/redaction.js';
import { sessionHome } from '../http/request-home.js';
import { toHtml } from '../domain/session-html.js';
import { SHARE_EMBED_MAX_BYTES, buildShareSnapshot, type LocalRef, type ScrubPath } from '../domain/share-snapshot.js';
import { SHARE_TOKEN, newShareToken, publicShare, sessionShareFields, shareInfo } from '../domain/share-links.js';
import { SessionId, presentSession, requireSession } from './session-common.js';
import { agentSessionCopy } from './cli-sessions.js';

// Extra fields the incumbent's clients send are ignored (zod strips them), never a 400.
const SessionBody = z.object({ session_id: SessionId });

/** The API's error text stays English (clients compare it); the page says it in the reader's language. */
const NOT_FOUND = 'Shared conversation not found';
/** The public page runs nothing and loads nothing but its own data: images. */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const PUBLIC_HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow', 'Referrer-Policy': 'no-referrer' };

/**
 * The pages' language: `?lang=<code>` (a link's owner checking how it reads), else the reader's
 * Accept-Language, else English. Never stored by a cache (no-store), and `Vary` says so anyway.
 */
function pageLocale(c: Context): LocaleCode {
  return chooseLocale(c.req.query('lang') ?? null, acceptedLanguages(c.req.header('Accept-Language')));
}

function pageHeaders(locale: LocaleCode) {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': PAGE_CSP,
    ...PUBLIC_HEADERS,
    'Content-Language': locale,
    Vary: 'Accept-Language',
  };
}

function storeOf(deps: AppDeps): ShareStore {
  if (!deps.shares) throw new NotAvailable('Share links are not available on this deployment');
  return deps.shares;
}

/** A live record for this token, or null (malformed, unknown and revoked alike). */
async function liveShare(deps: AppDeps, token: string): Promise<ShareRecord | null> {
  if (!deps.shares || !SHARE_TOKEN.test(token)) return null;
  const record = await deps.shares.get(token);
  return record && !record.revoked_at ? record : null;
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Where the session's text may name local paths, and how its local images are read (only inside its own roots). */
async function sourcesFor(deps: AppDeps, session: Session) {
  const paths: ScrubPath[] = [];
  if (session.workspace) paths.push({ path: session.workspace, placeholder: '<workspace>' });
  const home = await sessionHome(deps, session).catch(() => null);
  if (home) paths.push({ path: home.root, placeholder: '<hermes-home>' });
  const userHome = deps.options.machine?.homeDir;
  if (userHome) paths.push({ path: userHome, placeholder: '<home>' });
  const readImage = async (ref: LocalRef): Promise<Uint8Array | null> => {
    if (ref.kind === 'attachment') {
      const found = await deps.attachments.read?.(session.session_id, ref.path, SHARE_EMBED_MAX_BYTES);
      return found?.bytes ?? null;
    }
    if (!deps.media || !session.workspace) return null;
    const file = await deps.media.open({ path: ref.path, workspace: session.workspace, sessionId: session.session_id });
    // As the incumbent: the workspace and the session's uploads only, never the Hermes home's caches.
    if ((file.root !== 'workspace' && file.root !== 'attachments') || file.size > SHARE_EMBED_MAX_BYTES || file.size === 0) return null;
    return readAll(file.read(0, file.size - 1));
  };
  return { paths, readImage };
}

/** A session of ours, or else one of Hermes' own read from state.db (shared as it stands there, nothing stored here). */
async function shareable(deps: AppDeps, c: Context, id: string): Promise<Session> {
  return (await deps.sessions.get(id)) ?? (await agentSessionCopy(deps, c, id)) ?? (await requireSession(deps, id));
}

/** The session as create/revoke answer it: the usual projection plus its share fields. */
async function sessionAnswer(deps: AppDeps, session: Session, record: ShareRecord | null) {
  const present = await presenter(deps.settings);
  return present({ ...presentSession(session, { messages: false }), ...sessionShareFields(record) });
}

function sharePage(c: Context, record: ShareRecord): Response {
  const locale = pageLocale(c);
  const created = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(record.created_at * 1000);
  const session: Session = {
    session_id: 'share',
    title: record.title,
    created_at: record.created_at,
    updated_at: record.updated_at,
    messages: record.messages.map((m) => ({ ...m })),
  };
  const note = fillText(pageTexts(locale).sharedNote, { date: created });
  const html = toHtml(session, { noindex: true, images: true, note, locale });
  return c.body(html, 200, pageHeaders(locale));
}

/** The translations are ours and hold no markup; escaped all the same. */
const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function missingPage(c: Context): Response {
  const locale = pageLocale(c);
  const t = pageTexts(locale);
  const html = `<!doctype html><html lang="${locale}" dir="${directionOf(locale)}"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(t.notFoundTitle)}</title><style>body{margin:0;background:#0a0908;color:#eae0d5;font:15px/1.6 Georgia,serif}main{max-width:760px;margin:0 auto;padding:64px 20px}h1{font-size:22px;font-weight:500}</style></head><body><main><h1>${esc(t.notFoundHeading)}</h1><p>${esc(t.notFoundBody)}</p></main></body></html>`;
  return c.body(html, 404, pageHeaders(locale));
}

/**
 * Public read-only share links, in the incumbent's shapes. Creating (or refreshing) takes a
 * sanitised snapshot; the link and its page serve only that snapshot, to anyone with the token
 * (the auth guard lets `GET /api/share/<token>` and `/share/<token>` through without sign-in).
 */
export function shareRoutes(deps: AppDeps) {
  const app = new Hono();

  app.post('/api/share/create', async (c) => {
    const { session_id } = await jsonBody(c, SessionBody);
    const shares = storeOf(deps);
    const session = await shareable(deps, c, session_id);
    const snapshot = await buildShareSnapshot(session, await sourcesFor(deps, session));
    if (!snapshot.messages.length) throw new BadRequest('This conversation has no shareable messages yet.');
    // Hermes' conversations are keyed by the id the sidebar names them with (a compressed chain's tip).
    const existing = await shares.forSession(session.session_id);
    const now = deps.clock.now();
    // Sharing again refreshes the snapshot under the same link.
    const record: ShareRecord = {
      token: existing?.token ?? newShareToken(),
      source_session_id: session.session_id,
      profile: typeof session.profile === 'string' && session.profile ? session.profile : 'default',
      ...snapshot,
      created_at: existing?.created_at ?? now,
      updated_at: now,
      revoked_at: null,
    };
    await shares.put(record);
    return c.json({ ok: true, share: shareInfo(record), session: await sessionAnswer(deps, session, record) });
  });

  app.post('/api/share/revoke', async (c) => {
    const { session_id } = await jsonBody(c, SessionBody);
    const shares = storeOf(deps);
    const session = await shareable(deps, c, session_id);
    const existing = await shares.forSession(session.session_id);
    // As the incumbent: stopping a link that does not exist is not an error.
    // The stopped record keeps no transcript: only that the token once existed.
    if (existing) await shares.put({ ...existing, messages: [], message_count: 0, revoked_at: deps.clock.now() });
    return c.json({ ok: true, session: await sessionAnswer(deps, session, null) });
  });

  app.get('/api/share/:token', async (c) => {
    const record = await liveShare(deps, c.req.param('token'));
    if (!record) return c.json({ error: NOT_FOUND }, 404, PUBLIC_HEADERS);
    return c.json({ share: publicShare(record) }, 200, PUBLIC_HEADERS);
  });

  app.get('/share', (c) => missingPage(c));
  app.get('/share/:token', async (c) => {
    const record = await liveShare(deps, c.req.param('token'));
    return record ? sharePage(c, record) : missingPage(c);
  });

  return app;
}

/** The share fields of a session answer (`GET /api/session`); all null where shares are not offered. */
export async function sessionShare(deps: AppDeps, sessionId: string) {
  return sessionShareFields(deps.shares ? await deps.shares.forSession(sessionId).catch(() => null) : null);
}
