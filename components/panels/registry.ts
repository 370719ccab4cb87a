/** The control center's panels, in rail order; each loads as its own chunk on first open. */
export const PANELS = {
  tasks: () => import('./tasks/hermes-tasks-panel.js'),
  skills: () => import('./skills/hermes-skills-panel.js'),
  memory: () => import('./memory/hermes-memory-panel.js'),
  todos: () => import('./todos/hermes-todos-panel.js'),
  insights: () => import('./insights/hermes-insights-panel.js'),
  profiles: () => import('./profiles/hermes-profiles-panel.js'),
  logs: () => import('./logs/hermes-logs-panel.js'),
} as const;

export type PanelName = keyof typeof PANELS;

export const isPanelName = (name: string): name is PanelName => Object.hasOwn(PANELS, name);
