import type { SVGTemplateResult } from 'lit';
import { msg } from '@lit/localize';
import { icons } from '../shared/icons.js';
import { isPanelName, type PanelName } from '../panels/registry.js';

/** Where the rail can take you: the chat, a control-center panel, or the settings dialog. */
export type RailTarget = 'chat' | PanelName | 'settings';

export interface RailEntry {
  name: RailTarget;
  label: string;
  icon: (size?: number) => SVGTemplateResult;
}

/** The rail, top to bottom (issue 16's order); Settings is last and opens the dialog. Labels are getters: read in the current language. */
export const RAIL_ENTRIES: readonly RailEntry[] = [
  {
    name: 'chat',
    get label() {
      return msg('Chat');
    },
    icon: icons.chat,
  },
  {
    name: 'tasks',
    get label() {
      return msg('Tasks');
    },
    icon: icons.tasks,
  },
  {
    name: 'skills',
    get label() {
      return msg('Skills');
    },
    icon: icons.skills,
  },
  {
    name: 'memory',
    get label() {
      return msg('Memory');
    },
    icon: icons.memory,
  },
  {
    name: 'todos',
    get label() {
      return msg('Todos');
    },
    icon: icons.todos,
  },
  {
    name: 'insights',
    get label() {
      return msg('Insights');
    },
    icon: icons.insights,
  },
  {
    name: 'profiles',
    get label() {
      return msg('Profiles');
    },
    icon: icons.profiles,
  },
  {
    name: 'logs',
    get label() {
      return msg('Logs');
    },
    icon: icons.logs,
  },
  {
    name: 'settings',
    get label() {
      return msg('Settings');
    },
    icon: icons.settings,
  },
];

export const railLabel = (name: RailTarget): string => RAIL_ENTRIES.find((e) => e.name === name)?.label ?? name;

const LAST_PANEL = 'hermes:rail:last-panel';
const LAST_CHAT = 'hermes:rail:last-chat';

/**
 * What the rail remembers per tab (sessionStorage, like panel-state.ts): the last panel opened
 * (the control-center shortcut returns to it) and the chat path last shown (Chat returns to it,
 * also after a reload on a panel URL).
 */
export const railMemory = {
  lastPanel(fallback: PanelName): PanelName {
    const name = read(LAST_PANEL);
    return name && isPanelName(name) ? name : fallback;
  },
  setLastPanel(name: PanelName): void {
    write(LAST_PANEL, name);
  },
  lastChat(): string {
    const path = read(LAST_CHAT);
    // Only a chat path: nothing stored can send Chat somewhere else.
    return path && /^\/(session\/[^/?#]+)?$/.test(path) ? path : '/';
  },
  setLastChat(path: string): void {
    write(LAST_CHAT, path);
  },
};

function read(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    /* storage denied: the rail forgets with the page */
  }
}
