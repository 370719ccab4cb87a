import type { PrefillConfig } from '../config.js';
import type { Logger } from '../ports/platform.js';
import type { PrefillIo } from '../ports/prefill.js';
import type { AgentConfigSource } from './config-source.js';
import type { AgentConfig } from './config.js';
import type { ChatMessage } from './messages.js';
import { prefillSettings } from './prefill-config.js';
import { loadPrefill, prefillForModel, publicPrefillStatus } from './prefill.js';
import { runEvent, type TurnOutput } from './runtime.js';

/** What a runtime needs to give browser turns their prefill (the composition root builds it). */
export interface TurnPrefillSource {
  /** The HERMES_WEBUI_PREFILL_* variables that are set (they win over config.yaml). */
  env: PrefillConfig;
  io: PrefillIo;
  /** The user's home, for `~` in config.yaml paths. */
  homeDir?: string;
}

/** The model's share of one turn's prefill: text for the system prompt, and the exchange before the conversation. */
export interface TurnPrefill {
  system: string;
  exchange: ChatMessage[];
}

export const NO_PREFILL: TurnPrefill = { system: '', exchange: [] };

/**
 * Loads this turn's prefill (the profile's config.yaml as `config`, or read here when null), logs
 * a failing or over-budget source, and emits `context_status` as the incumbent does. Never
 * throws: a broken config.yaml only costs its prefill keys (the turn reports that itself).
 */
export async function turnPrefill(
  source: TurnPrefillSource,
  files: AgentConfigSource,
  config: AgentConfig | null,
  turn: { sessionId: string; logger: Logger; emit: (out: TurnOutput) => void },
): Promise<TurnPrefill> {
  const yaml = config ?? (await files.load().catch(() => null));
  const settings = prefillSettings(source.env, yaml?.prefill, { configPath: files.paths.config, ...(source.homeDir ? { homeDir: source.homeDir } : {}) });
  const context = await loadPrefill(settings, source.io);
  const { logger, sessionId } = turn;
  if (context.status === 'error') logger.info({ msg: 'prefill context unavailable', session_id: sessionId, source: context.source, error: context.error });
  else if (context.compacted)
    logger.info({
      msg: 'prefill context over budget',
      session_id: sessionId,
      source: context.source,
      chars: context.originalCharCount,
      max_chars: context.maxChars,
    });
  turn.emit(runEvent('context_status', { session_id: sessionId, prefill: publicPrefillStatus(context) }));
  return prefillForModel(context.messages);
}
