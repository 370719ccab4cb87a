/**
 * A panel's own UI state (the file it shows, its filters, its scroll), kept per tab in
 * sessionStorage so leaving the panel and coming back — or a reload — finds it as it was.
 *
 * @example
 * const state = panelState('logs', { file: 'agent', tail: 200 });
 * state.get().file; state.set({ tail: 500 });
 */
export function panelState<T extends Record<string, unknown>>(panel: string, defaults: T) {
  const key = `hermes:panel:${panel}`;
  const read = (): T => {
    try {
      const raw = JSON.parse(sessionStorage.getItem(key) ?? 'null') as Partial<T> | null;
      return raw && typeof raw === 'object' ? { ...defaults, ...raw } : { ...defaults };
    } catch {
      return { ...defaults };
    }
  };
  return {
    get: read,
    set(patch: Partial<T>): T {
      const next = { ...read(), ...patch };
      try {
        sessionStorage.setItem(key, JSON.stringify(next));
      } catch {
        /* storage full or denied: the state lives for this view only */
      }
      return next;
    },
  };
}
