import type { SessionStatus } from '../api/session-ops.js';

const tokens = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : n.toLocaleString('en'));

/** `/status` as a few short lines (the incumbent's session info card). */
export function statusLines(s: SessionStatus): string[] {
  const lines = [
    `“${s.title}”${s.agent_running ? ' · working now' : ''}`,
    `Model ${s.model ?? 'default'}${s.personality ? ` · personality ${s.personality}` : ''} · profile ${s.profile}`,
  ];
  if (s.workspace) lines.push(`Workspace ${s.workspace}`);
  const cost = typeof s.estimated_cost === 'number' ? ` · $${s.estimated_cost.toFixed(s.estimated_cost < 0.1 ? 4 : 2)}` : '';
  lines.push(`${s.message_count} messages · ${tokens(s.input_tokens)} in / ${tokens(s.output_tokens)} out tokens${cost}`);
  return lines;
}
