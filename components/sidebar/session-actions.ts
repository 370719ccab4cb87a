import { api, type ApiSession, type SessionRow } from '../api/client.js';
import { sessionOps } from '../api/session-ops.js';
import type { ChatStore } from '../state/chat-store.js';
import type { SessionsStore } from '../state/sessions-store.js';
import type { UiStore } from '../state/ui-store.js';
import { emit } from '../events.js';
import { copyText } from '../render/clipboard.js';
import { msg, str } from '@lit/localize';

/** What a row action needs: the stores it updates and an element to emit navigation from. */
export interface ActionContext {
  sessions: SessionsStore;
  chat?: ChatStore | undefined;
  ui?: UiStore | undefined;
  host: EventTarget;
}

export type SessionAction =
  | { action: 'rename'; id: string; title: string }
  | { action: 'pin'; id: string; pinned: boolean }
  | { action: 'archive'; id: string; archived: boolean }
  | { action: 'move'; id: string; projectId: string | null }
  | { action: 'duplicate'; id: string }
  | { action: 'regenerate-title'; id: string }
  | { action: 'share'; id: string }
  | { action: 'copy-share'; id: string; url: string }
  | { action: 'unshare'; id: string }
  | { action: 'delete'; id: string };

/** Copies the link (absolute) and says so; the toast carries the link too, for when the clipboard is refused. */
async function copyShareLink(ctx: ActionContext, url: string): Promise<void> {
  const link = new URL(url, location.origin).href;
  const copied = await copyText(link);
  ctx.ui?.notify(copied ? msg(str`Share link copied: ${link}`) : msg(str`Share link: ${link}`));
}

/** Keeps the open chat's copy of the session in step with the row the sidebar just changed. */
function patchOpen(ctx: ActionContext, id: string, patch: Partial<SessionRow>): void {
  const chat = ctx.chat;
  if (!chat?.session || chat.sessionId !== id) return;
  chat.patchSession(patch);
}

export function rowOf(s: ApiSession): SessionRow {
  return {
    session_id: s.session_id,
    title: s.title,
    workspace: s.workspace ?? null,
    model: s.model ?? null,
    message_count: s.message_count,
    created_at: s.created_at,
    updated_at: s.updated_at,
    pinned: !!s.pinned,
    archived: !!s.archived,
    project_id: s.project_id ?? null,
    active_stream_id: null,
  };
}

/** Runs one row action against the API, then updates the list (and the open chat). */
export async function runAction(ctx: ActionContext, a: SessionAction): Promise<void> {
  const { sessions } = ctx;
  try {
    switch (a.action) {
      case 'rename': {
        const title = a.title.trim();
        const current = sessions.rows.find((r) => r.session_id === a.id);
        if (!title || title === current?.title) return;
        const r = await api.rename(a.id, title);
        sessions.patch(a.id, r.session);
        patchOpen(ctx, a.id, { title: r.session.title });
        return;
      }
      case 'pin': {
        const r = await api.pin(a.id, a.pinned);
        sessions.patch(a.id, r.session);
        patchOpen(ctx, a.id, { pinned: r.session.pinned });
        return;
      }
      case 'archive': {
        const r = await api.archive(a.id, a.archived);
        // Hidden archived rows leave the list; with "Show archived" on they stay, marked.
        if (a.archived && !sessions.showArchived) sessions.remove(a.id);
        else sessions.patch(a.id, r.session);
        patchOpen(ctx, a.id, { archived: r.session.archived });
        return;
      }
      case 'move': {
        const r = await api.move(a.id, a.projectId);
        sessions.patch(a.id, r.session);
        patchOpen(ctx, a.id, { project_id: r.session.project_id });
        return;
      }
      case 'regenerate-title': {
        ctx.ui?.notify(msg('Writing a new title…'));
        // From the latest exchange: a conversation that has moved on gets a title for where it is now.
        const r = await sessionOps.regenerateTitle(a.id, true);
        sessions.patch(a.id, { title: r.title });
        patchOpen(ctx, a.id, { title: r.title });
        ctx.ui?.notify(msg(str`Renamed to “${r.title}”.`));
        return;
      }
      case 'duplicate': {
        const copy = await api.duplicate(a.id);
        sessions.insert(rowOf(copy));
        ctx.ui?.notify(msg(str`Duplicated as “${copy.title}”`));
        return;
      }
      case 'share': {
        const share = await api.shareCreate(a.id);
        await copyShareLink(ctx, share.url);
        return;
      }
      case 'copy-share':
        await copyShareLink(ctx, a.url);
        return;
      case 'unshare':
        await api.shareRevoke(a.id);
        ctx.ui?.notify(msg('Share link stopped: it no longer opens.'));
        return;
      case 'delete': {
        await api.remove(a.id);
        sessions.remove(a.id);
        if (ctx.chat?.sessionId === a.id) emit(ctx.host, 'hermes-open-session', { sessionId: null, replace: true });
        return;
      }
    }
  } catch (err) {
    ctx.ui?.notify((err as Error).message, 'error');
  }
}

/** Creates a project and adds it to the list without re-fetching every session. */
export async function createProject(ctx: ActionContext, name: string, color: string | null): Promise<boolean> {
  try {
    const project = await api.createProject(name, color);
    ctx.sessions.addProject(project);
    return true;
  } catch (err) {
    ctx.ui?.notify((err as Error).message, 'error');
    return false;
  }
}
