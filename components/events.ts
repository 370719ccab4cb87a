import type { Message, OnboardingStatus, PendingApproval } from './api/client.js';
import type { MessageActionDetail } from './render/message-actions.js';
import type { SessionAction } from './sidebar/session-actions.js';
import type { RailTarget } from './rail/rail-entries.js';
import type { SessionsChanged } from '../src/shared/live-events.js';
import type { GitStatus } from './api/git.js';

/**
 * Every DOM event the app's elements fire, one map, all named `hermes-…`: elements announce
 * intent upwards; <hermes-app> (or the nearest owner) acts. Fire them with `emit` (bubbling
 * and composed, so they cross shadow roots, unless `local`), listen with `listen` or a Lit
 * `@hermes-…` binding; the map types both ends.
 */
export interface HermesEventMap {
  // Navigation
  /**
   * Open a session (null: the empty new-chat view); `find`: jump to the first message holding it
   * (a search hit); `inspect`: a compression snapshot as the record it is, not its live tip.
   */
  'hermes-open-session': { sessionId: string | null; replace?: boolean; find?: string; inspect?: boolean };
  /** Open a file from the transcript or the tree in the workspace panel. */
  'hermes-open-file': { path: string };
  /** A rail entry (or the phone's panels sheet) was chosen: the chat, a panel or settings. */
  'hermes-rail-select': { name: RailTarget };
  /** The phone's panels sheet wants to close (scrim, Escape). Local. */
  'hermes-rail-close': null;
  /** On `window`: providers or the default model changed; whoever shows the model list fetches it again. */
  'hermes-models-changed': null;
  /** On `window`: this browser switched Hermes profile; lists of that profile's things load again. */
  'hermes-profile-changed': { name: string };
  /**
   * On `window`: the server says the session list changed (`GET /api/sessions/events`: a new
   * session, a rename, a run starting or ending, a task run, an approval waiting). Fired by the
   * one live-sync connection; the sidebar refetches, the Tasks panel and notifications listen.
   */
  'hermes-sessions-changed': SessionsChanged;

  // Chat
  /** A message's action button: edit, retry or fork (the transcript asks the chat store). */
  'hermes-message-action': MessageActionDetail;
  /** The composer's model picker: a model was picked or typed. */
  'hermes-model-change': { model: string };
  /** The model picker asks for a fresh list. */
  'hermes-models-refresh': null;
  /** A row of the slash-command menu was clicked. */
  'hermes-slash-pick': { index: number };
  /** An attachment chip's remove button. */
  'hermes-attachment-remove': null;
  /** An archive's chip: "Extract into workspace". */
  'hermes-attachment-extract': null;
  /** The composer's mic: dictated text to put at the caret. */
  'hermes-dictation-text': { text: string };
  /** The workspace chip's menu: a workspace was chosen (or added) for this chat. */
  'hermes-workspace-pick': { path: string; name: string };
  /** The workspace chip's menu: "New chat here". */
  'hermes-workspace-new-chat': { path: string; name: string };
  /** The workspace chip's file-panel toggle. */
  'hermes-workspace-files': null;
  /** A chip's lazily loaded menu asks its chip to close it (refocus: put the focus back on the chip). */
  'hermes-popover-close': { refocus: boolean };
  /** A saved prompt was picked: into the composer's input. */
  'hermes-prompt-insert': { text: string };

  // Sidebar
  /** A row's ⋯ button, with where to anchor the menu. */
  'hermes-row-menu': { id: string; anchor: DOMRect };
  /** An inline rename finished (title null: cancelled). */
  'hermes-row-rename': { id: string; title: string | null };
  /** The session list scrolled (menus anchored to a row close). Local. */
  'hermes-list-scroll': null;
  /** The end of the loaded rows is near the viewport: load the next page, if any. */
  'hermes-list-end': null;
  /** The row menu's choice. Local. */
  'hermes-menu-action': SessionAction;
  /** The row menu's Rename: start renaming inline. Local. */
  'hermes-menu-rename': { id: string };
  /** The row menu wants to close. Local. */
  'hermes-menu-close': { restoreFocus: boolean };

  // Settings, onboarding, workspace
  /** The first-run wizard finished or was skipped: show the chat. */
  'hermes-onboarding-done': { status: OnboardingStatus | null };
  /** A settings control kept its value (the dialog says "Saved"). */
  'hermes-setting-saved': null;
  /** A provider's key or endpoint was saved, or the provider removed. */
  'hermes-provider-changed': { provider: string; removed: boolean };
  /** Settings → MCP servers: a server was added or changed in config.yaml. */
  'hermes-mcp-saved': { name: string };
  /** The MCP server form's Cancel or Escape. */
  'hermes-mcp-cancel': null;
  /** The workspace panel's close button. Local. */
  'hermes-panel-close': null;
  /** The file preview's close button. Local. */
  'hermes-preview-close': null;
  /** The file editor's Cancel. Local. */
  'hermes-edit-cancel': null;
  /** The file editor saved. Local. */
  'hermes-file-saved': { content: string };
  /** The file tree renamed or moved an entry. Local. */
  'hermes-file-renamed': { from: string; to: string };
  /** The file tree deleted an entry. Local. */
  'hermes-file-deleted': { path: string };
  /** On `window`: files of the session's workspace changed outside the tree (an undone turn); the tree reloads. */
  'hermes-workspace-changed': { sessionId: string };
  /** The Git panel has a new status (after an action or a refresh): the file tree's badges follow. Local. */
  'hermes-git-status': { status: GitStatus };

  // Terminal
  /** `/terminal`: open the session's terminal panel above the composer. */
  'hermes-terminal-open': null;
  /** The terminal panel's close button (its shell is gone). Local. */
  'hermes-terminal-close': null;

  // <hermes-chat>'s public events (what the embedding page listens to; see components/embed)
  /** Authorised and showing its session (null until the first message creates one). */
  'hermes-ready': { sessionId: string | null };
  /** A settled message: the user's (as stored) or the assistant's (when its turn ended). */
  'hermes-message': { sessionId: string; role: 'user' | 'assistant'; content: string; message: Message };
  'hermes-run-start': { sessionId: string; streamId: string };
  'hermes-run-end': { sessionId: string; streamId: string };
  /** A command waits for approval in the element's approval card. */
  'hermes-approval': { sessionId: string; approval: PendingApproval };
  /** `status` 401/403: not authorised; 0: the server cannot be reached. */
  'hermes-error': { message: string; status?: number };
}

export type HermesEventName = keyof HermesEventMap;
export type HermesEvent<K extends HermesEventName> = CustomEvent<HermesEventMap[K]>;
type HermesEvents = { [K in HermesEventName]: HermesEvent<K> };

declare global {
  interface HTMLElementEventMap extends HermesEvents {}
  interface WindowEventMap extends HermesEvents {}
}

/** Fires one of the app's events: bubbling and composed, unless `local` (for the direct owner only). */
export function emit<K extends HermesEventName>(from: EventTarget, name: K, detail: HermesEventMap[K], options: { local?: boolean } = {}): void {
  const spread = !options.local;
  from.dispatchEvent(new CustomEvent(name, { detail, bubbles: spread, composed: spread }));
}

/** Listens for one of the app's events, typed; returns the function that stops listening. */
export function listen<K extends HermesEventName>(on: EventTarget, name: K, handler: (e: HermesEvent<K>) => void): () => void {
  const h = handler as EventListener;
  on.addEventListener(name, h);
  return () => on.removeEventListener(name, h);
}

/** Providers or the default model changed (Settings → Providers, the onboarding wizard). */
export function announceModelsChanged(): void {
  emit(window, 'hermes-models-changed', null);
}
