import { sessionUsage, type SessionUsage } from '../api/usage.js';
import { formatCost, percentOf } from '../chat/usage-format.js';
import type { CommandContext } from './slash-commands.js';

/** `/usage`'s line: the session's totals, its cache share, its cost and how full the context is. */
export function usageLine(u: SessionUsage): string {
  const parts = [`${u.input_tokens.toLocaleString()} in · ${u.output_tokens.toLocaleString()} out (${u.total_tokens.toLocaleString()} tokens)`];
  if (u.cache_read_tokens) parts.push(`${u.cache_read_tokens.toLocaleString()} cached${u.cache_hit_percent !== null ? ` (${u.cache_hit_percent}%)` : ''}`);
  parts.push(u.estimated_cost !== null ? `cost ${formatCost(u.estimated_cost)}` : 'cost not reported');
  if (u.last_prompt_tokens || u.context_length)
    parts.push(
      u.context_length
        ? `context ${u.last_prompt_tokens.toLocaleString()} of ${u.context_length.toLocaleString()} (${percentOf(u.last_prompt_tokens, u.context_length)}%)`
        : `context ${u.last_prompt_tokens.toLocaleString()} tokens`,
    );
  if (u.model) parts.push(u.model);
  return `Usage: ${parts.join(' · ')}`;
}

/**
 * `/usage`: the session's totals (GET /api/session/usage). `/usage on|off` switches the usage
 * line under answers (`show_token_usage`), which is what the incumbent's bare `/usage` toggles.
 */
export async function usageCommand(ctx: CommandContext, arg: string, sessionOf: (ctx: CommandContext) => string): Promise<void> {
  const word = arg.toLowerCase();
  if (word === 'on' || word === 'off') {
    await ctx.ui.save({ show_token_usage: word === 'on' });
    return ctx.ui.notify(word === 'on' ? 'Token usage shown under each answer.' : 'Token usage hidden.');
  }
  if (word) return ctx.ui.notify(`Unknown /usage “${arg}”: use /usage, /usage on or /usage off.`);
  ctx.ui.notify(usageLine(await sessionUsage(sessionOf(ctx))));
}
