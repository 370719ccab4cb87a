import type { AgentConfig, CompressionConfig } from '../config.js';
import type { ModelProvider } from '../providers/types.js';
import { resolveProvider } from '../providers/resolve.js';

/** Hermes' numbers (agent/context_compressor.py, agent/model_metadata.py). */
const SMALL_WINDOW = 512_000;
const SMALL_WINDOW_FLOOR = 0.75;
const MINIMUM_CONTEXT = 64_000;
const SMALL_MODEL_TRIGGER = 0.85;

/**
 * The prompt size (tokens) at which the next step compresses first, as Hermes computes it:
 * the threshold ratio, raised to 0.75 for windows under 512K (a higher configured value wins),
 * of the window less the output reservation; never under 64K tokens unless that is the whole
 * window, in which case 85% of it; then capped by `threshold_tokens`.
 *
 * @example
 * compressionTrigger({ threshold: 0.5, thresholdTokens: null, ... }, 200_000, null) // 150000
 */
export function compressionTrigger(
  c: Pick<CompressionConfig, 'threshold' | 'thresholdTokens'> & Partial<Pick<CompressionConfig, 'modelThresholds'>>,
  contextLength: number,
  maxTokens: number | null,
  model = '',
): number {
  const base = modelThreshold(c.modelThresholds ?? {}, model) ?? c.threshold;
  const ratio = contextLength > 0 && contextLength < SMALL_WINDOW ? Math.max(base, SMALL_WINDOW_FLOOR) : base;
  let window = contextLength - (maxTokens && maxTokens > 0 ? maxTokens : 0);
  if (window <= 0) window = contextLength;
  let trigger = Math.max(Math.floor(window * ratio), MINIMUM_CONTEXT);
  if (window > 0 && trigger >= window) trigger = Math.max(1, Math.min(Math.floor(window * SMALL_MODEL_TRIGGER), window - 1));
  if (c.thresholdTokens !== null) trigger = Math.min(trigger, Math.min(c.thresholdTokens, contextLength));
  return trigger;
}

/** `compression.model_thresholds`: the value of the longest key the model name contains. */
function modelThreshold(thresholds: Record<string, number>, model: string): number | null {
  let best = '';
  for (const key of Object.keys(thresholds)) if (model.includes(key) && key.length > best.length) best = key;
  return best ? thresholds[best]! : null;
}

/**
 * The model that writes compression summaries: `auxiliary.compression` where it names a
 * provider, model or endpoint (unset fields come from the main model), else the turn's own.
 * A configuration that does not resolve falls back to the turn's model, as Hermes falls back
 * rather than failing the turn.
 */
export function compressionModel(
  config: AgentConfig,
  main: { provider: ModelProvider; model: string },
  fetchImpl?: typeof fetch,
): { provider: ModelProvider; model: string } {
  const aux = config.auxiliaryCompression;
  if (!aux.provider && !aux.model && !aux.baseUrl) return main;
  const sameProvider = !aux.provider && !aux.baseUrl;
  try {
    const resolved = resolveProvider(
      {
        ...config,
        model: {
          ...config.model,
          default: aux.model ?? main.model,
          provider: aux.provider ?? (aux.baseUrl ? 'custom' : config.model.provider),
          baseUrl: aux.baseUrl ?? (sameProvider ? config.model.baseUrl : null),
          apiKey: aux.apiKey ?? (sameProvider ? config.model.apiKey : null),
          apiMode: sameProvider ? config.model.apiMode : null,
        },
      },
      null,
      fetchImpl,
    );
    return { provider: resolved.provider, model: resolved.model };
  } catch {
    return main;
  }
}
