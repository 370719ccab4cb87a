import { msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { sessionUsage, type SessionUsage } from '../api/usage.js';
import { formatCost, percentOf } from '../chat/usage-format.js';
import type { CommandContext } from './slash-commands.js';

/** `/usage`'s line: the session's totals, its cache share, its cost and how full the context is. */
export function usageLine(u: SessionUsage): string {
  const n = (v: number) => formatNumber(v);
  const pct = (v: number) => formatNumber(v / 100, { style: 'percent', maximumFractionDigits: 1 });
  const parts = [msg(str`${n(u.input_tokens)} in · ${n(u.output_tokens)} out (${n(u.total_tokens)} tokens)`)];
  if (u.cache_read_tokens)
    parts.push(
      u.cache_hit_percent !== null ? msg(str`${n(u.cache_read_tokens)} cached (${pct(u.cache_hit_percent)})`) : msg(str`${n(u.cache_read_tokens)} cached`),
    );
  parts.push(u.estimated_cost !== null ? msg(str`cost ${formatCost(u.estimated_cost)}`) : msg('cost not reported'));
  if (u.last_prompt_tokens || u.context_length)
    parts.push(
      u.context_length
        ? msg(str`context ${n(u.last_prompt_tokens)} of ${n(u.context_length)} (${pct(percentOf(u.last_prompt_tokens, u.context_length))})`)
        : msg(str`context ${n(u.last_prompt_tokens)} tokens`),
    );
  if (u.model) parts.push(u.model);
  return msg(str`Usage: ${parts.join(' · ')}`);
}

/**
 * `/usage`: the session's totals (GET /api/session/usage). `/usage on|off` switches the usage
 * line under answers (`show_token_usage`), which is what the incumbent's bare `/usage` toggles.
 */
export async function usageCommand(ctx: CommandContext, arg: string, sessionOf: (ctx: CommandContext) => string): Promise<void> {
  const word = arg.toLowerCase();
  if (word === 'on' || word === 'off') {
    await ctx.ui.save({ show_token_usage: word === 'on' });
    return ctx.ui.notify(word === 'on' ? msg('Token usage shown under each answer.') : msg('Token usage hidden.'));
  }
  if (word) return ctx.ui.notify(msg(str`Unknown /usage “${arg}”: use /usage, /usage on or /usage off.`));
  ctx.ui.notify(usageLine(await sessionUsage(sessionOf(ctx))));
}
