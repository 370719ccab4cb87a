import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { positiveIntOrNull, section, text, toBool, toFloat, toInt, turnLimit } from './config-coerce.js';
import { parseWebConfig, type WebConfig } from './tools/web/settings.js';
import type { FileEditsMode } from './tools/file-edit-policy.js';
import { DelegationFileSchema, delegationConfig, type DelegationConfig } from './delegation-config.js';
import { parseRoutingConfig, type RoutingConfig } from './config-routing.js';
import { parseEffort, type ReasoningEffort } from './reasoning.js';
import { parsePersonalities, type Personality } from './personalities.js';
import { imageInputConfig, type ImageInputConfig } from './image-input.js';
import { prefillFileConfig, type PrefillFileConfig } from './prefill-config.js';

/**
 * Hermes' own configuration (`$HERMES_HOME/config.yaml` and `.env`), reduced to what the
 * builtin agent uses. Pure: the caller supplies the files' text and the environment.
 */
export interface AgentConfig extends RoutingConfig {
  model: {
    default: string | null;
    provider: string | null;
    baseUrl: string | null;
    apiKey: string | null;
    apiMode: 'chat_completions' | 'anthropic_messages' | null;
    contextLength: number | null;
    maxTokens: number | null;
  };
  customProviders: Array<{
    name: string;
    baseUrl: string;
    apiKey: string | null;
    keyEnv: string | null;
    apiMode: string | null;
    models: Record<string, { contextLength?: number }>;
  }>;
  /** `agent.max_turns`: model calls per turn; null = unlimited (Hermes' default, also `none`/`inf`/0/-1). */
  maxTurns: number | null;
  /** `agent.api_max_retries`: model requests asked again after a transient failure (3: up to 4 requests). */
  apiMaxRetries: number;
  /** `agent.reasoning_effort` (none … max); null: unset or unknown, the provider's own default. */
  reasoningEffort?: ReasoningEffort | null;
  /** `agent.personalities`: what `/personality` offers (see personalities.ts). */
  personalities?: Personality[];
  approvals: {
    mode: 'manual' | 'off' | 'smart';
    deny: string[];
    timeoutSeconds: number;
    /** `approvals.cron_mode`: whether a scheduled run may run a flagged command (nobody is there to ask). */
    cronMode: 'approve' | 'deny';
    /** `approvals.file_edits`: when write_file/patch show their diff and wait (default outside_workspace). */
    fileEdits: FileEditsMode;
  };
  commandAllowlist: string[];
  compression: CompressionConfig;
  /** `auxiliary.compression`: the model that writes compression summaries (unset fields: the turn's model). */
  auxiliaryCompression: AuxiliaryModelConfig;
  /** `memory.*`: which stores are on and their character limits. */
  memory: MemoryConfig;
  terminal: { timeoutSeconds: number };
  /** `skills.disabled` and `skills.external_dirs` (as written: `~` and relative paths resolved by the runtime). */
  skills: { disabled: string[]; externalDirs: string[] };
  /** `auxiliary.vision`: the model vision_analyze asks (provider `auto`/unset: the main model). */
  auxiliaryVision: {
    provider: string | null;
    model: string | null;
    baseUrl: string | null;
    apiKey: string | null;
    timeoutSeconds: number;
    temperature: number;
    downloadTimeoutSeconds: number;
  };
  /** `delegation.*`: delegate_task's subagents (see delegation-config.ts). */
  delegation: DelegationConfig;
  /** `tool_output.max_bytes` (characters of command output the model sees) and `security.redact_secrets`, never fatal when malformed, as in Hermes. */
  terminalOutput: { maxChars: number; redactSecrets: boolean };
  /** `.env` values over the process environment: where provider keys come from. */
  env: Record<string, string>;
  /** `web:` (backends, `searxng_url`), `security.allow_private_urls` and the web backends' keys. */
  web?: WebConfig;
  /** `agent.image_input_mode` and the `supports_vision` overrides: whether attached images reach the model as images. */
  imageInput?: ImageInputConfig;
  /** The incumbent's browser-turn prefill keys (prefill-config.ts); the HERMES_WEBUI_PREFILL_* variables win over them. */
  prefill?: PrefillFileConfig;
}

/** `compression.*` as Hermes reads it (hermes_cli/config_defaults.py). */
export interface CompressionConfig {
  enabled: boolean;
  /** Share of the context window that triggers compression; raised to 0.75 under a 512K window at use. */
  threshold: number;
  /** `threshold_tokens`: an absolute trigger; the lower of it and the ratio wins. */
  thresholdTokens: number | null;
  /** Non-system messages kept verbatim at the head (0: only the summary and the tail). */
  protectFirstN: number;
  /** Recent messages kept verbatim at least. */
  protectLastN: number;
  /** `abort_on_summary_failure`: without a summary keep everything (true) or drop the middle with a stand-in (false). */
  abortOnSummaryFailure: boolean;
  /** `model_thresholds`: threshold per model-name substring (the longest match wins). */
  modelThresholds: Record<string, number>;
}

export interface AuxiliaryModelConfig {
  /** null or "auto": the main provider. */
  provider: string | null;
  model: string | null;
  baseUrl: string | null;
  apiKey: string | null;
  timeoutSeconds: number;
}

export interface MemoryConfig {
  memoryEnabled: boolean;
  userProfileEnabled: boolean;
  memoryCharLimit: number;
  userCharLimit: number;
}

const num = z.coerce.number().finite();
const str = z.union([z.string(), z.number()]).transform(String);

const FileSchema = z
  .object({
    model: z
      .union([
        str,
        z
          .object({
            default: str.nullish(),
            model: str.nullish(),
            provider: str.nullish(),
            base_url: str.nullish(),
            api_key: str.nullish(),
            api_mode: str.nullish(),
            context_length: num.nullish(),
            max_tokens: num.nullish(),
          })
          .passthrough(),
      ])
      .nullish(),
    custom_providers: z
      .array(
        z
          .object({
            name: str,
            base_url: str,
            api_key: str.nullish(),
            key_env: str.nullish(),
            api_mode: str.nullish(),
            models: z.record(z.string(), z.object({ context_length: num.nullish() }).passthrough().nullish()).nullish(),
          })
          .passthrough(),
      )
      .nullish(),
    // Loose values (`max_turns: unlimited`) are read as Hermes reads them, never refused.
    agent: z.object({ max_turns: z.unknown().optional(), api_max_retries: num.nullish(), reasoning_effort: z.unknown().optional() }).passthrough().nullish(),
    approvals: z
      .object({
        mode: z.union([str, z.boolean()]).nullish(),
        deny: z.array(str).nullish(),
        timeout: num.nullish(),
        cron_mode: z.unknown().optional(),
        file_edits: z.unknown().optional(),
      })
      .passthrough()
      .nullish(),
    command_allowlist: z.union([z.array(str), str]).nullish(),
    compression: z.unknown().optional(),
    auxiliary: z.unknown().optional(),
    memory: z.unknown().optional(),
    terminal: z.object({ timeout: z.unknown().optional() }).passthrough().nullish(),
    skills: z.unknown().optional(),
    delegation: DelegationFileSchema,
    tool_output: z.unknown().optional(),
    security: z.unknown().optional(),
  })
  .passthrough();

export class AgentConfigError extends Error {}

/** Hermes reads these leniently: a bad value means the default, and `HERMES_REDACT_SECRETS` wins over config.yaml. */
function terminalOutput(toolOutput: unknown, security: unknown, env: Record<string, string>): AgentConfig['terminalOutput'] {
  const field = (section: unknown, key: string) => (section && typeof section === 'object' ? (section as Record<string, unknown>)[key] : undefined);
  const raw = Number(field(toolOutput, 'max_bytes'));
  const maxChars = Number.isInteger(raw) && raw >= 1 ? raw : 50_000;
  const flag = env.HERMES_REDACT_SECRETS ?? field(security, 'redact_secrets');
  const redactSecrets = flag === undefined || flag === null ? true : ['1', 'true', 'yes', 'on'].includes(String(flag).trim().toLowerCase());
  return { maxChars, redactSecrets };
}

/** `KEY=value` lines; `#` comments, `export ` prefixes and quotes as a shell user writes them. */
export function parseDotenv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2]!;
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) {
      value = value.slice(1, -1);
    } else {
      value = value.replace(/\s+#.*$/, '');
    }
    out[m[1]!] = value;
  }
  return out;
}

/** `${VAR}` and `${env:VAR}` in config values, as Hermes substitutes them. */
export function substitute(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, k: string) => env[k] ?? '');
  if (Array.isArray(value)) return value.map((v) => substitute(v, env));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, env)]));
  return value;
}

/**
 * Hermes' yes/no approval keys (`cron_mode`): the strings `approve`, `off`, `allow` and `yes`
 * approve; anything else denies — a typo, and a bare YAML 1.1 `off`/`yes`, which Hermes reads as a
 * boolean and so as neither.
 */
function binaryApprovalMode(v: unknown): 'approve' | 'deny' {
  return typeof v === 'string' && ['approve', 'off', 'allow', 'yes'].includes(v.trim().toLowerCase()) ? 'approve' : 'deny';
}

/**
 * `approvals.file_edits` (ours; Hermes has no such key): `always`, `never` (also a YAML 1.1
 * `off`/`no`, read as false) or `outside_workspace`, which is also what unset or unknown means.
 */
function fileEditsMode(v: unknown): FileEditsMode {
  if (v === false) return 'never';
  if (v === true) return 'always';
  const m = typeof v === 'string' ? v.trim().toLowerCase() : '';
  if (m === 'always' || m === 'never') return m;
  return m === 'off' || m === 'no' ? 'never' : 'outside_workspace';
}

/**
 * `approvals.mode` as Hermes reads it: unset is `smart` (its default); a YAML 1.1 `off` arrives as
 * false; anything it does not know is `manual`, the safe choice.
 */
function approvalMode(mode: string | boolean | null | undefined): AgentConfig['approvals']['mode'] {
  if (mode === undefined || mode === null) return 'smart';
  if (typeof mode === 'boolean') return mode ? 'manual' : 'off';
  const m = mode.trim().toLowerCase();
  return m === 'off' || m === 'smart' ? m : 'manual';
}

/** Parses the legacy stringified list form (`"['a', 'b']"`) Hermes still tolerates. */
function allowlist(value: string | string[] | null | undefined): string[] {
  if (Array.isArray(value)) return value;
  if (!value) return [];
  return value
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((s) => s.trim().replace(/^['"]|['"]$/g, ''))
    .filter(Boolean);
}

/** A list of names as Hermes reads one: a YAML list, a JSON/Python-literal list in a string, or one name. */
function nameList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter(Boolean);
  if (typeof value !== 'string' || !value.trim()) return [];
  const text = value.trim();
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text.replace(/'/g, '"'));
      if (Array.isArray(parsed)) return parsed.map((v) => String(v).trim()).filter(Boolean);
    } catch {
      // not a list after all: one name
    }
  }
  return [text];
}

/**
 * @example
 * parseAgentConfig({ configYaml: 'model:\n  default: gpt-5\n  provider: openai\n', dotenv: 'OPENAI_API_KEY=sk-1', env: {} })
 */
export function parseAgentConfig(input: { configYaml: string | null; dotenv: string | null; env: Record<string, string | undefined> }): AgentConfig {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(input.env)) if (typeof v === 'string') env[k] = v;
  Object.assign(env, input.dotenv ? parseDotenv(input.dotenv) : {});

  let raw: unknown = {};
  if (input.configYaml?.trim()) {
    try {
      raw = parseYaml(input.configYaml) ?? {};
    } catch (err) {
      throw new AgentConfigError(`config.yaml is not valid YAML: ${(err as Error).message}`);
    }
  }
  const parsed = FileSchema.safeParse(substitute(raw, env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AgentConfigError(`config.yaml: ${issue.path.join('.')}: ${issue.message}`);
  }
  const f = parsed.data;
  const fileModel = typeof f.model === 'string' ? { default: f.model } : (f.model ?? {});
  // The deployment's own variables win over config.yaml (on Workers they are the only source).
  const m = {
    ...fileModel,
    ...(env.HERMES_WEBUI_DEFAULT_MODEL ? { default: env.HERMES_WEBUI_DEFAULT_MODEL } : {}),
    ...(env.HERMES_WEBUI_PROVIDER ? { provider: env.HERMES_WEBUI_PROVIDER } : {}),
    ...(env.HERMES_WEBUI_BASE_URL ? { base_url: env.HERMES_WEBUI_BASE_URL } : {}),
    ...(env.HERMES_WEBUI_API_KEY ? { api_key: env.HERMES_WEBUI_API_KEY } : {}),
  };
  const mode = f.approvals?.mode;
  const apiMode = m && 'api_mode' in m ? m.api_mode : null;
  return {
    model: {
      default: (m.default ?? ('model' in m ? m.model : null) ?? null) || null,
      provider: ('provider' in m ? m.provider : null)?.toLowerCase() || null,
      baseUrl: ('base_url' in m ? m.base_url : null) || null,
      apiKey: ('api_key' in m ? m.api_key : null) || null,
      apiMode: apiMode === 'anthropic_messages' || apiMode === 'chat_completions' ? apiMode : null,
      contextLength: ('context_length' in m ? m.context_length : null) ?? null,
      maxTokens: ('max_tokens' in m ? m.max_tokens : null) ?? null,
    },
    customProviders: (f.custom_providers ?? []).map((p) => ({
      name: p.name,
      baseUrl: p.base_url,
      apiKey: p.api_key ?? null,
      keyEnv: p.key_env ?? null,
      apiMode: p.api_mode ?? null,
      models: Object.fromEntries(Object.entries(p.models ?? {}).map(([id, v]) => [id, v?.context_length ? { contextLength: v.context_length } : {}])),
    })),
    // A legacy root-level `max_turns` counts when `agent.max_turns` is absent, as in Hermes.
    maxTurns: turnLimit(f.agent && 'max_turns' in f.agent ? f.agent.max_turns : (f as Record<string, unknown>).max_turns),
    apiMaxRetries: Math.max(0, Math.round(f.agent?.api_max_retries ?? 3)),
    reasoningEffort: parseEffort(f.agent?.reasoning_effort),
    personalities: parsePersonalities(section(f, 'agent')),
    approvals: {
      mode: approvalMode(mode),
      deny: f.approvals?.deny ?? [],
      timeoutSeconds: f.approvals?.timeout ?? 300,
      cronMode: binaryApprovalMode(f.approvals?.cron_mode),
      fileEdits: fileEditsMode(f.approvals?.file_edits),
    },
    commandAllowlist: allowlist(f.command_allowlist),
    compression: compressionConfig(section(f, 'compression')),
    auxiliaryCompression: auxiliaryModel(section(section(f, 'auxiliary'), 'compression'), 120),
    memory: memoryConfig(section(f, 'memory')),
    terminal: { timeoutSeconds: Math.max(1, toInt(f.terminal?.timeout, 180)) },
    skills: { disabled: nameList(section(f, 'skills').disabled), externalDirs: nameList(section(f, 'skills').external_dirs) },
    auxiliaryVision: auxiliaryVision(section(section(f, 'auxiliary'), 'vision'), env),
    delegation: delegationConfig(f.delegation),
    terminalOutput: terminalOutput(f.tool_output, f.security, env),
    ...parseRoutingConfig(f),
    env,
    web: parseWebConfig(f, env),
    imageInput: imageInputConfig(f),
    prefill: prefillFileConfig(f),
  };
}

function compressionConfig(c: Record<string, unknown>): CompressionConfig {
  return {
    enabled: toBool(c.enabled, true),
    threshold: toFloat(c.threshold, 0.5),
    thresholdTokens: positiveIntOrNull(c.threshold_tokens),
    protectFirstN: Math.max(0, toInt(c.protect_first_n, 3)),
    protectLastN: Math.max(1, toInt(c.protect_last_n, 20)),
    abortOnSummaryFailure: toBool(c.abort_on_summary_failure, false),
    modelThresholds: Object.fromEntries(
      Object.entries(section(c, 'model_thresholds')).flatMap(([key, value]) => {
        const ratio = toFloat(value, Number.NaN);
        return key && Number.isFinite(ratio) ? [[key, ratio]] : [];
      }),
    ),
  };
}

function auxiliaryModel(c: Record<string, unknown>, timeout: number): AuxiliaryModelConfig {
  const provider = text(c.provider);
  return {
    provider: provider && provider.toLowerCase() !== 'auto' ? provider.toLowerCase() : null,
    model: text(c.model),
    baseUrl: text(c.base_url),
    apiKey: text(c.api_key),
    timeoutSeconds: Math.max(1, toInt(c.timeout, timeout)),
  };
}

function memoryConfig(c: Record<string, unknown>): MemoryConfig {
  return {
    memoryEnabled: toBool(c.memory_enabled, true),
    userProfileEnabled: toBool(c.user_profile_enabled, true),
    memoryCharLimit: Math.max(1, toInt(c.memory_char_limit, 2200)),
    userCharLimit: Math.max(1, toInt(c.user_char_limit, 1375)),
  };
}

/** `auxiliary.vision`; Hermes' legacy AUXILIARY_VISION_MODEL applies only when config.yaml names no model. */
function auxiliaryVision(v: Record<string, unknown>, env: Record<string, string>): AgentConfig['auxiliaryVision'] {
  const downloadEnv = Number(env.HERMES_VISION_DOWNLOAD_TIMEOUT);
  return {
    provider: text(v.provider)?.toLowerCase() ?? null,
    model: text(v.model) ?? (env.AUXILIARY_VISION_MODEL?.trim() || null),
    baseUrl: text(v.base_url),
    apiKey: text(v.api_key),
    timeoutSeconds: toFloat(v.timeout, 120),
    temperature: toFloat(v.temperature, 0.1),
    // HERMES_VISION_DOWNLOAD_TIMEOUT wins over config.yaml, as in Hermes.
    downloadTimeoutSeconds: downloadEnv > 0 ? downloadEnv : toFloat(v.download_timeout, 30),
  };
}
