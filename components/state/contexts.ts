import { createContext } from '@lit/context';
import type { ChatStore } from './chat-store.js';
import type { SessionsStore } from './sessions-store.js';
import type { UiStore } from './ui-store.js';

/** The open chat: transcript, live turn, pending approval/clarify. */
export const chatContext = createContext<ChatStore>(Symbol.for('hermes/chat'));
/** The sidebar's sessions, projects, search. */
export const sessionsContext = createContext<SessionsStore>(Symbol.for('hermes/sessions'));
/** Settings, theme, panel and dialog state, toasts. */
export const uiContext = createContext<UiStore>(Symbol.for('hermes/ui'));
