import { PREFILL_DEFAULT_MAX_CHARS, PREFILL_DEFAULT_TIMEOUT_MS, PREFILL_OUTPUT_LIMIT, type PrefillConfig } from '../config.js';
import { section, text } from './config-coerce.js';
import type { PrefillSettings } from './prefill.js';

/**
 * The prefill keys of config.yaml the incumbent reads (top level): `prefill_messages_file`
 * (Hermes' own key; its legacy `agent.prefill_messages_file` too), `webui_prefill_messages_script`
 * (a command line or an argv list), `webui_prefill_messages_script_timeout` (seconds) and
 * `webui_prefill_context_max_chars`. A value that cannot be used counts as unset.
 */
export interface PrefillFileConfig {
  file?: string;
  script?: string | string[];
  scriptTimeoutMs?: number;
  maxChars?: number;
}

function finite(raw: unknown): number | null {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() ? Number(raw.trim()) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

/** The keys as written, coerced as the environment variables are (the same clamps). */
export function prefillFileConfig(yaml: unknown): PrefillFileConfig {
  const root = yaml && typeof yaml === 'object' ? (yaml as Record<string, unknown>) : {};
  const file = text(root.prefill_messages_file) ?? text(section(root, 'agent').prefill_messages_file);
  const rawScript = root.webui_prefill_messages_script;
  const script = Array.isArray(rawScript) ? rawScript.map((part) => String(part ?? '')).filter(Boolean) : text(rawScript);
  const timeout = finite(root.webui_prefill_messages_script_timeout);
  const max = finite(root.webui_prefill_context_max_chars);
  return {
    ...(file ? { file } : {}),
    ...(script?.length ? { script } : {}),
    ...(timeout !== null ? { scriptTimeoutMs: Math.round(Math.min(30, Math.max(0.1, timeout)) * 1000) } : {}),
    ...(max !== null && Number.isInteger(max) ? { maxChars: Math.min(PREFILL_OUTPUT_LIMIT, Math.max(0, max)) } : {}),
  };
}

/**
 * One turn's settings: each HERMES_WEBUI_PREFILL_* variable over its config.yaml key, then the
 * defaults. Relative paths resolve beside config.yaml; `~` is the user's home.
 */
export function prefillSettings(env: PrefillConfig, yaml: PrefillFileConfig | undefined, where: { configPath: string; homeDir?: string }): PrefillSettings {
  const file = env.file ?? yaml?.file;
  const script = env.script ?? yaml?.script;
  const slash = where.configPath.lastIndexOf('/');
  return {
    ...(file ? { file } : {}),
    ...(script ? { script } : {}),
    scriptTimeoutMs: env.scriptTimeoutMs ?? yaml?.scriptTimeoutMs ?? PREFILL_DEFAULT_TIMEOUT_MS,
    maxChars: env.maxChars ?? yaml?.maxChars ?? PREFILL_DEFAULT_MAX_CHARS,
    baseDir: slash > 0 ? where.configPath.slice(0, slash) : '/',
    ...(where.homeDir ? { homeDir: where.homeDir } : {}),
  };
}
