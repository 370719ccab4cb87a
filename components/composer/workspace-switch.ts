import { msg, str } from '@lit/localize';
import { api } from '../api/client.js';
import type { WorkspaceEntry } from '../api/workspaces.js';
import type { ChatStore } from '../state/chat-store.js';
import type { SessionsStore } from '../state/sessions-store.js';
import type { UiStore } from '../state/ui-store.js';

/** The incumbent's words when a switch would land under a running turn (in the chosen language). */
export const busySwitchText = () => msg('Cannot switch workspace while agent is running');

export const workspaceLabel = (path: string) =>
  path
    .replace(/[\\/]+$/, '')
    .split(/[\\/]/)
    .pop() || path;

/** The saved workspaces as last fetched (the slash menu completes `/workspace` from them, synchronously). */
let known: WorkspaceEntry[] = [];
export const rememberWorkspaces = (list: WorkspaceEntry[]) => void (known = list);
export const knownWorkspaces = (): readonly WorkspaceEntry[] => known;

/**
 * The workspace `/workspace <arg>` names: an exact name, then an exact path, then the first whose
 * name or path contains it (the incumbent's rule), all case-insensitive.
 */
export function findWorkspace(list: readonly WorkspaceEntry[], arg: string): WorkspaceEntry | undefined {
  const q = arg
    .trim()
    .toLowerCase()
    .replace(/(.)\/+$/, '$1');
  if (!q) return undefined;
  return (
    list.find((w) => w.name.toLowerCase() === q) ??
    list.find((w) => w.path.toLowerCase() === q) ??
    list.find((w) => w.name.toLowerCase().includes(q) || w.path.toLowerCase().includes(q))
  );
}

/**
 * Moves the open session to `path`: from its next turn the agent works there (its shell starts
 * there) and the file panel shows it. Refused while a turn runs, as the incumbent refuses it.
 * Resolves true when the session now works in `path`; a toast says what happened either way.
 */
export async function switchWorkspace(ctx: { chat: ChatStore; ui: UiStore; sessions?: SessionsStore }, path: string, name?: string): Promise<boolean> {
  const { chat, ui } = ctx;
  const sid = chat.sessionId;
  if (!sid) return false;
  if (chat.session?.workspace === path) return true;
  if (chat.status !== 'idle') {
    ui.notify(busySwitchText());
    return false;
  }
  try {
    const session = await api.update(sid, { workspace: path });
    const workspace = session.workspace ?? path;
    if (chat.sessionId === sid) chat.patchSession({ workspace });
    ctx.sessions?.patch(sid, { workspace });
    ui.notify(msg(str`Switched to ${name ?? workspaceLabel(workspace)}`));
    return true;
  } catch (err) {
    ui.notify(msg(str`Workspace switch failed: ${(err as Error).message}`), 'error');
    return false;
  }
}
