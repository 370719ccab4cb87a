import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { parseRoutingConfig, type RoutingConfig } from './config-routing.js';

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
  maxTurns: number;
  /** `agent.api_max_retries`: model requests asked again after a transient failure (3: up to 4 requests). */
  apiMaxRetries: number;
  approvals: { mode: 'manual' | 'off' | 'smart'; deny: string[]; timeoutSeconds: number };
  commandAllowlist: string[];
  compression: { enabled: boolean; threshold: number; protectLastN: number };
  terminal: { timeoutSeconds: number };
  /** `.env` values over the process environment: where provider keys come from. */
  env: Record<string, string>;
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
    agent: z.object({ max_turns: num.nullish(), api_max_retries: num.nullish() }).passthrough().nullish(),
    approvals: z
      .object({ mode: str.nullish(), deny: z.array(str).nullish(), timeout: num.nullish() })
      .passthrough()
      .nullish(),
    command_allowlist: z.union([z.array(str), str]).nullish(),
    compression: z.object({ enabled: z.boolean().nullish(), threshold: num.nullish(), protect_last_n: num.nullish() }).passthrough().nullish(),
    terminal: z.object({ timeout: num.nullish() }).passthrough().nullish(),
  })
  .passthrough();

export class AgentConfigError extends Error {}

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
function substitute(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, k: string) => env[k] ?? '');
  if (Array.isArray(value)) return value.map((v) => substitute(v, env));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, env)]));
  return value;
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
    maxTurns: Math.max(1, Math.round(f.agent?.max_turns ?? 90)),
    apiMaxRetries: Math.max(0, Math.round(f.agent?.api_max_retries ?? 3)),
    approvals: {
      mode: mode === 'off' || mode === 'smart' ? mode : 'manual',
      deny: f.approvals?.deny ?? [],
      timeoutSeconds: f.approvals?.timeout ?? 300,
    },
    commandAllowlist: allowlist(f.command_allowlist),
    compression: {
      enabled: f.compression?.enabled ?? true,
      threshold: f.compression?.threshold ?? 0.5,
      protectLastN: Math.max(1, Math.round(f.compression?.protect_last_n ?? 20)),
    },
    terminal: { timeoutSeconds: f.terminal?.timeout ?? 180 },
    ...parseRoutingConfig(f),
    env,
  };
}
