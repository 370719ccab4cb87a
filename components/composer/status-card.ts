import { msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import type { SessionStatus } from '../api/session-ops.js';

const tokens = (n: number) => (n >= 10_000 ? formatNumber(n, { notation: 'compact', maximumFractionDigits: 0 }).toLowerCase() : formatNumber(n));

/** `/status` as a few short lines (the incumbent's session info card). */
export function statusLines(s: SessionStatus): string[] {
  const model = s.model ?? msg('default');
  const lines = [
    s.agent_running ? msg(str`“${s.title}” · working now`) : `“${s.title}”`,
    s.personality ? msg(str`Model ${model} · personality ${s.personality} · profile ${s.profile}`) : msg(str`Model ${model} · profile ${s.profile}`),
  ];
  if (s.workspace) lines.push(msg(str`Workspace ${s.workspace}`));
  const cost = typeof s.estimated_cost === 'number' ? ` · $${s.estimated_cost.toFixed(s.estimated_cost < 0.1 ? 4 : 2)}` : '';
  const count = formatNumber(s.message_count);
  const usage = msg(str`${tokens(s.input_tokens)} in / ${tokens(s.output_tokens)} out tokens`);
  lines.push(s.message_count === 1 ? msg(str`1 message · ${usage}${cost}`) : msg(str`${count} messages · ${usage}${cost}`));
  return lines;
}
