import { loadScreen } from '../i18n/localization.js';

/** The control center's panels, in rail order; each loads as its own chunk on first open, with the panels' messages. */
export const PANELS = {
  tasks: () => loadScreen('panels', () => import('./tasks/hermes-tasks-panel.js')),
  skills: () => loadScreen('panels', () => import('./skills/hermes-skills-panel.js')),
  memory: () => loadScreen('panels', () => import('./memory/hermes-memory-panel.js')),
  todos: () => loadScreen('panels', () => import('./todos/hermes-todos-panel.js')),
  insights: () => loadScreen('panels', () => import('./insights/hermes-insights-panel.js')),
  profiles: () => loadScreen('panels', () => import('./profiles/hermes-profiles-panel.js')),
  logs: () => loadScreen('panels', () => import('./logs/hermes-logs-panel.js')),
} as const;

export type PanelName = keyof typeof PANELS;

export const isPanelName = (name: string): name is PanelName => Object.hasOwn(PANELS, name);
