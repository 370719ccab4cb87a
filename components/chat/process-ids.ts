import type { ToolView } from '../state/turns.js';

const PROC_ID = /^proc_[0-9a-f]{12}$/;

/** The background processes a turn started: ids from its `terminal` results with `background: true`. */
export function startedProcessIds(tools: ToolView[]): string[] {
  const ids: string[] = [];
  for (const t of tools) {
    if (t.name !== 'terminal' || !t.args.background || !t.result) continue;
    try {
      const id = (JSON.parse(t.result) as { session_id?: unknown }).session_id;
      if (typeof id === 'string' && PROC_ID.test(id)) ids.push(id);
    } catch {
      /* a result cut short or not JSON: nothing to list */
    }
  }
  return ids;
}
