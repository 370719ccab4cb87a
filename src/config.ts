import { z } from 'zod';
import { MAX_ARCHIVE_MEMBERS, type TransferLimits } from './ports/workspace-transfer.js';

/**
 * Server configuration from `HERMES_*` environment variables, parsed once at startup.
 * Pure: the entry file passes the environment and the user's home directory in.
 */
export interface Config {
  hermesHome: string;
  stateDir: string;
  host: string;
  port: number;
  defaultWorkspace: string;
  /** `HERMES_WEBUI_STORAGE`: the state dir (default), memory, or Postgres (`databaseUrl`) for several instances. */
  storage: 'fs' | 'memory' | 'postgres';
  /** `HERMES_WEBUI_DATABASE_URL`: the Postgres connection string (required with `storage: 'postgres'`). */
  databaseUrl?: string;
  /**
   * Durable runs: `resume` (`HERMES_WEBUI_RESUME_RUNS`, default on) carries an interrupted
   * built-in turn on at start instead of closing it; `maxAttempts` (`HERMES_WEBUI_RESUME_ATTEMPTS`,
   * default 2) resumes a turn gets before it ends with an error.
   */
  runs: { resume: boolean; maxAttempts: number };
  /** `HERMES_WEBUI_INSTANCE_ID`: this server's name among several on one database (default host:pid:random). */
  instanceId?: string;
  maxUploadBytes: number;
  /** Archive extraction and folder-zip limits (`HERMES_WEBUI_MAX_EXTRACTED_MB`, `HERMES_WEBUI_FOLDER_ZIP_MAX_MB`/`_FILES`). */
  transfer: TransferLimits;
  /** Origins allowed to embed <hermes-chat> (`HERMES_WEBUI_EMBED_ORIGINS`); absent when none. */
  embedOrigins?: string[];
  auth: AuthConfig;
  onboarding: OnboardingConfig;
  /** How long GET /api/models waits for provider probes (`HERMES_WEBUI_MODELS_REBUILD_BUDGET`, seconds → ms). */
  modelsBudgetMs: number;
  /** `HERMES_WEBUI_SCHEDULER` (`on`): `off` runs no scheduled task here (another server, or Hermes' gateway, runs them). */
  scheduler: 'on' | 'off';
  /** `HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE` (off): the git panel may stage, commit, discard, pull, push and check out. */
  gitDestructive: boolean;
  /** Who answers chat turns (`HERMES_WEBUI_CHAT_BACKEND`): the builtin agent, or a Hermes Agent gateway. */
  chatBackend: 'builtin' | 'gateway';
  /** True when HERMES_WEBUI_CHAT_BACKEND / HERMES_WEBUI_GATEWAY_BASE_URL were set: they win over Settings. */
  chatBackendFixed: boolean;
  gatewayBaseUrlFixed: boolean;
  /** The Hermes API server for `chatBackend: 'gateway'` (see GatewayConfig). */
  gateway: GatewayConfig;
  /**
   * More folders `/api/media` may serve: the incumbent's `MEDIA_ALLOWED_ROOTS` and Hermes'
   * `HERMES_MEDIA_ALLOW_DIRS` (`:` or `,` separated; relative entries are ignored, as both do).
   */
  mediaAllowedRoots?: string[];
  /** This server's log file `<state dir>/logs/webui.log`: rotated past `maxBytes` (`HERMES_WEBUI_LOG_MAX_MB`, default 5), `keep` old files (`HERMES_WEBUI_LOG_BACKUPS`, default 3). */
  serverLog: { maxBytes: number; keep: number };
  /**
   * Web Push: `allowLocal` (`HERMES_WEBUI_PUSH_ALLOW_LOCAL=1`) lets subscriptions point at http or
   * local addresses (tests, a LAN relay); `subject` (`HERMES_WEBUI_PUSH_SUBJECT`) is the VAPID contact.
   */
  push: { allowLocal: boolean; subject: string };
  /** `HERMES_CONFIG_PATH` (`~` expanded): the default profile's config.yaml instead of `$HERMES_HOME/config.yaml`. */
  hermesConfigPath?: string;
  /** Browser-turn prefill context (see PrefillConfig). */
  prefill: PrefillConfig;
}

/**
 * The incumbent's browser-turn prefill: messages put before the conversation in the model's
 * copy of each chat turn (src/agent/prefill.ts says how). Only what the environment sets: each
 * unset one falls back to its config.yaml key, read every turn (src/agent/prefill-turn.ts).
 */
export interface PrefillConfig {
  /** `HERMES_WEBUI_PREFILL_MESSAGES_FILE` or `HERMES_PREFILL_MESSAGES_FILE`: a JSON list of `{role, content}`. */
  file?: string;
  /** `HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT`: a command (no shell) printing JSON messages or plain text. */
  script?: string;
  /** `HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT_TIMEOUT` (seconds → ms), clamped to 0.1-30 s as the incumbent does (default 5 s). */
  scriptTimeoutMs?: number;
  /** `HERMES_WEBUI_PREFILL_CONTEXT_MAX_CHARS`: at most 262,144; 0 turns the budget off (default 12,000). */
  maxChars?: number;
}

export const PREFILL_DEFAULT_TIMEOUT_MS = 5000;
export const PREFILL_DEFAULT_MAX_CHARS = 12_000;

/** The incumbent's bounds: a script's output past this many bytes is refused, and no budget is larger. */
export const PREFILL_OUTPUT_LIMIT = 262_144;

/** A Hermes Agent API server (`hermes gateway` with API_SERVER_ENABLED). */
export interface GatewayConfig {
  /** `HERMES_WEBUI_GATEWAY_BASE_URL`, default http://127.0.0.1:8642 (no trailing slash). */
  baseUrl: string;
  /** `HERMES_WEBUI_GATEWAY_API_KEY`; absent: `API_SERVER_KEY` from the environment or `$HERMES_HOME/.env`. */
  apiKey?: string;
  /** `HERMES_WEBUI_GATEWAY_READ_TIMEOUT` (seconds → ms, default 120 s): the longest a gateway stream may stay silent. */
  readTimeoutMs: number;
}

export interface OnboardingConfig {
  /** `HERMES_WEBUI_SKIP_ONBOARDING`: a preconfigured install never shows the wizard. */
  skip: boolean;
  /** `HERMES_WEBUI_ONBOARDING_OPEN`: allow the wizard from other machines without a password (discouraged). */
  open: boolean;
}

/** Password login and request-origin rules (see src/auth and docs/architecture.md). */
export interface AuthConfig {
  /** `HERMES_WEBUI_PASSWORD`: wins over a password set in settings. */
  password?: string;
  /** How long a sign-in lasts, in seconds (`HERMES_WEBUI_SESSION_TTL`, default 30 days). */
  sessionTtlSeconds: number;
  cookieName: string;
  /** `HERMES_WEBUI_SECURE`: force the cookie's Secure flag on or off; unset follows the request. */
  secureCookies?: boolean;
  /** Behind a reverse proxy: believe X-Forwarded-Proto / X-Forwarded-Host / X-Forwarded-For. */
  trustForwardedProto: boolean;
  trustForwardedHost: boolean;
  trustForwardedFor: boolean;
  /** Origins that count as this server's own (`HERMES_WEBUI_ALLOWED_ORIGINS`), e.g. a proxy's public URL. */
  allowedOrigins: string[];
}

const nonEmpty = z.string().trim().min(1);

/** `https://Example.com/` → `https://example.com`; null for anything but a bare http(s) origin. */
function originOf(value: string): string | null {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    if ((u.pathname !== '/' && u.pathname !== '') || u.search || u.hash || u.username || u.password) return null;
    return u.origin;
  } catch {
    return null;
  }
}

const flag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['1', 'true', 'yes', 'on', '0', 'false', 'no', 'off'].includes(v), 'must be 1/true/yes/on or 0/false/no/off')
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const originList = () =>
  z.string().transform((text, ctx) => {
    const origins: string[] = [];
    for (const part of text
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const origin = originOf(part);
      if (!origin) {
        ctx.addIssue({ code: 'custom', message: `"${part}" is not an origin (like https://example.com)` });
        return z.NEVER;
      }
      if (!origins.includes(origin)) origins.push(origin);
    }
    return origins;
  });

const EnvSchema = z.object({
  HERMES_HOME: nonEmpty.optional(),
  MEDIA_ALLOWED_ROOTS: z.string().optional(),
  HERMES_MEDIA_ALLOW_DIRS: z.string().optional(),
  HERMES_WEBUI_STATE_DIR: nonEmpty.optional(),
  HERMES_WEBUI_HOST: nonEmpty.default('127.0.0.1'),
  HERMES_WEBUI_PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0-65535')
    .max(65535, 'must be 0-65535')
    .default(8787),
  HERMES_WEBUI_DEFAULT_WORKSPACE: nonEmpty.optional(),
  HERMES_WEBUI_STORAGE: z.enum(['fs', 'memory', 'postgres'], { error: 'must be "fs", "memory" or "postgres"' }).default('fs'),
  HERMES_WEBUI_DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  HERMES_WEBUI_RESUME_RUNS: flag.default(true),
  HERMES_WEBUI_RESUME_ATTEMPTS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(20, 'must be at most 20')
    .default(2),
  HERMES_WEBUI_INSTANCE_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'must be letters, digits, and . _ : - (at most 100)')
    .optional(),
  HERMES_WEBUI_MAX_UPLOAD_MB: z.coerce.number({ error: 'must be a number' }).positive('must be more than 0').max(4096, 'must be at most 4096').default(20),
  // The incumbent's archive and folder-zip caps (api/upload.py, api/routes.py); extraction defaults to 10 × the upload cap.
  HERMES_WEBUI_MAX_EXTRACTED_MB: z.coerce
    .number({ error: 'must be a number' })
    .positive('must be more than 0')
    .max(1024 * 1024, 'must be at most 1048576')
    .optional(),
  HERMES_WEBUI_FOLDER_ZIP_MAX_MB: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').default(1024),
  HERMES_WEBUI_FOLDER_ZIP_MAX_FILES: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').default(50_000),
  HERMES_WEBUI_EMBED_ORIGINS: originList().optional(),
  HERMES_WEBUI_ALLOWED_ORIGINS: originList().optional(),
  // Trimmed as the incumbent does: a stray newline from an env file is not part of the password.
  HERMES_WEBUI_PASSWORD: z.string().trim().max(1024, 'must be at most 1024 characters').optional(),
  HERMES_WEBUI_SESSION_TTL: z.coerce
    .number({ error: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(60, 'must be at least 60 seconds')
    .max(365 * 86400, 'must be at most one year (31536000)')
    .default(30 * 86400),
  HERMES_WEBUI_COOKIE_NAME: z
    .string()
    .regex(/^[-!#$%&'*+.^_`|~0-9A-Za-z]+$/, 'must be a cookie name (letters, digits, - _ .)')
    .default('hermes_session'),
  HERMES_WEBUI_SECURE: flag.optional(),
  HERMES_WEBUI_TRUST_FORWARDED_PROTO: flag.default(false),
  HERMES_WEBUI_TRUST_FORWARDED_HOST: flag.default(false),
  HERMES_WEBUI_TRUST_FORWARDED_FOR: flag.default(false),
  HERMES_WEBUI_SKIP_ONBOARDING: flag.default(false),
  HERMES_WEBUI_SCHEDULER: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE: flag.default(false),
  HERMES_WEBUI_ONBOARDING_OPEN: flag.default(false),
  HERMES_WEBUI_MODELS_REBUILD_BUDGET: z.coerce
    .number({ error: 'must be a number of seconds' })
    .min(0.05, 'must be at least 0.05 seconds')
    .max(120, 'must be at most 120 seconds')
    .default(4),
  HERMES_WEBUI_CHAT_BACKEND: z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => ['builtin', 'gateway', 'api_server'].includes(v), 'must be "builtin" or "gateway"')
    .transform((v) => (v === 'builtin' ? 'builtin' : 'gateway') as 'builtin' | 'gateway')
    .default('builtin'),
  HERMES_WEBUI_GATEWAY_BASE_URL: z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/[^\s/?#]+/i.test(v) && URL.canParse(v), 'must be an http(s) URL like http://127.0.0.1:8642')
    .transform((v) => v.replace(/\/+$/, ''))
    .default('http://127.0.0.1:8642'),
  HERMES_WEBUI_GATEWAY_API_KEY: z.string().trim().max(4096, 'must be at most 4096 characters').optional(),
  HERMES_WEBUI_LOG_MAX_MB: z.coerce.number({ error: 'must be a number' }).min(0.01, 'must be at least 0.01').max(1024, 'must be at most 1024').default(5),
  HERMES_WEBUI_PUSH_ALLOW_LOCAL: flag.default(false),
  HERMES_WEBUI_PUSH_SUBJECT: z
    .string()
    .regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'must be a mailto: address or an https:// URL')
    .default('mailto:hermes-webui@users.noreply.github.com'),
  HERMES_WEBUI_LOG_BACKUPS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0-20')
    .max(20, 'must be 0-20')
    .default(3),
  HERMES_WEBUI_GATEWAY_READ_TIMEOUT: z.coerce
    .number({ error: 'must be a number of seconds' })
    .min(0.05, 'must be at least 0.05 seconds')
    .max(86400, 'must be at most 86400 seconds')
    .default(120),
  HERMES_CONFIG_PATH: nonEmpty.optional(),
  HERMES_WEBUI_PREFILL_MESSAGES_FILE: nonEmpty.optional(),
  HERMES_PREFILL_MESSAGES_FILE: nonEmpty.optional(),
  HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: nonEmpty.optional(),
  // Out-of-range values are clamped as the incumbent does (an old deployment still starts); garbage is refused.
  HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT_TIMEOUT: z.coerce
    .number({ error: 'must be a number of seconds' })
    .refine(Number.isFinite, 'must be a number of seconds')
    .transform((v) => Math.min(30, Math.max(0.1, v)))
    .optional(),
  HERMES_WEBUI_PREFILL_CONTEXT_MAX_CHARS: z.coerce
    .number({ error: 'must be a whole number of characters' })
    .int('must be a whole number of characters')
    .transform((v) => Math.min(PREFILL_OUTPUT_LIMIT, Math.max(0, v)))
    .optional(),
});

export class ConfigError extends Error {}

function joinPath(base: string, ...parts: string[]): string {
  return [base.replace(/[\\/]+$/, ''), ...parts].join('/');
}

function expandHome(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') ? joinPath(home, path.slice(2)) : path;
}

/**
 * @example
 * const config = parseConfig({ HERMES_WEBUI_PORT: '9000' }, { home: '/home/ada' });
 */
export function parseConfig(env: Record<string, string | undefined>, options: { home: string }): Config {
  // Empty variables mean "unset", as a shell user would expect from `FOO= npm start`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.HERMES_WEBUI_STORAGE === 'postgres' && !e.HERMES_WEBUI_DATABASE_URL)
    throw new ConfigError(
      'Invalid configuration:\n  HERMES_WEBUI_DATABASE_URL: is required when HERMES_WEBUI_STORAGE=postgres (postgres://user:password@host:5432/db)',
    );
  const hermesHome = expandHome(e.HERMES_HOME ?? joinPath(options.home, '.hermes'), options.home);
  const stateDir = expandHome(e.HERMES_WEBUI_STATE_DIR ?? joinPath(hermesHome, 'webui'), options.home);
  return {
    hermesHome,
    stateDir,
    host: e.HERMES_WEBUI_HOST,
    port: e.HERMES_WEBUI_PORT,
    defaultWorkspace: expandHome(e.HERMES_WEBUI_DEFAULT_WORKSPACE ?? joinPath(stateDir, 'workspace'), options.home),
    storage: e.HERMES_WEBUI_STORAGE,
    ...(e.HERMES_WEBUI_DATABASE_URL ? { databaseUrl: e.HERMES_WEBUI_DATABASE_URL } : {}),
    runs: { resume: e.HERMES_WEBUI_RESUME_RUNS, maxAttempts: e.HERMES_WEBUI_RESUME_ATTEMPTS },
    ...(e.HERMES_WEBUI_INSTANCE_ID ? { instanceId: e.HERMES_WEBUI_INSTANCE_ID } : {}),
    maxUploadBytes: Math.round(e.HERMES_WEBUI_MAX_UPLOAD_MB * 1024 * 1024),
    transfer: {
      maxExtractedBytes: Math.round((e.HERMES_WEBUI_MAX_EXTRACTED_MB ?? 10 * e.HERMES_WEBUI_MAX_UPLOAD_MB) * 1024 * 1024),
      maxArchiveMembers: MAX_ARCHIVE_MEMBERS,
      folderZipMaxBytes: e.HERMES_WEBUI_FOLDER_ZIP_MAX_MB * 1024 * 1024,
      folderZipMaxFiles: e.HERMES_WEBUI_FOLDER_ZIP_MAX_FILES,
    },
    ...(e.HERMES_WEBUI_EMBED_ORIGINS?.length ? { embedOrigins: e.HERMES_WEBUI_EMBED_ORIGINS } : {}),
    auth: {
      ...(e.HERMES_WEBUI_PASSWORD ? { password: e.HERMES_WEBUI_PASSWORD } : {}),
      sessionTtlSeconds: e.HERMES_WEBUI_SESSION_TTL,
      cookieName: e.HERMES_WEBUI_COOKIE_NAME,
      ...(e.HERMES_WEBUI_SECURE !== undefined ? { secureCookies: e.HERMES_WEBUI_SECURE } : {}),
      trustForwardedProto: e.HERMES_WEBUI_TRUST_FORWARDED_PROTO,
      trustForwardedHost: e.HERMES_WEBUI_TRUST_FORWARDED_HOST,
      trustForwardedFor: e.HERMES_WEBUI_TRUST_FORWARDED_FOR,
      allowedOrigins: e.HERMES_WEBUI_ALLOWED_ORIGINS ?? [],
    },
    onboarding: { skip: e.HERMES_WEBUI_SKIP_ONBOARDING, open: e.HERMES_WEBUI_ONBOARDING_OPEN },
    modelsBudgetMs: Math.round(e.HERMES_WEBUI_MODELS_REBUILD_BUDGET * 1000),
    scheduler: e.HERMES_WEBUI_SCHEDULER,
    gitDestructive: e.HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE,
    chatBackend: e.HERMES_WEBUI_CHAT_BACKEND,
    chatBackendFixed: present.HERMES_WEBUI_CHAT_BACKEND !== undefined,
    gatewayBaseUrlFixed: present.HERMES_WEBUI_GATEWAY_BASE_URL !== undefined,
    gateway: {
      baseUrl: e.HERMES_WEBUI_GATEWAY_BASE_URL,
      ...(e.HERMES_WEBUI_GATEWAY_API_KEY ? { apiKey: e.HERMES_WEBUI_GATEWAY_API_KEY } : {}),
      readTimeoutMs: Math.round(e.HERMES_WEBUI_GATEWAY_READ_TIMEOUT * 1000),
    },
    ...mediaRoots([e.MEDIA_ALLOWED_ROOTS, e.HERMES_MEDIA_ALLOW_DIRS], options.home),
    serverLog: { maxBytes: Math.round(e.HERMES_WEBUI_LOG_MAX_MB * 1024 * 1024), keep: e.HERMES_WEBUI_LOG_BACKUPS },
    push: { allowLocal: e.HERMES_WEBUI_PUSH_ALLOW_LOCAL, subject: e.HERMES_WEBUI_PUSH_SUBJECT },
    ...(e.HERMES_CONFIG_PATH ? { hermesConfigPath: expandHome(e.HERMES_CONFIG_PATH, options.home) } : {}),
    prefill: prefillConfig(e, options.home),
  };
}

function prefillConfig(e: z.infer<typeof EnvSchema>, home: string): PrefillConfig {
  // The incumbent reads HERMES_PREFILL_MESSAGES_FILE (Hermes Agent's name); the WebUI-prefixed one wins when both are set.
  const file = e.HERMES_WEBUI_PREFILL_MESSAGES_FILE ?? e.HERMES_PREFILL_MESSAGES_FILE;
  return {
    ...(file ? { file: expandHome(file, home) } : {}),
    ...(e.HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT ? { script: e.HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT } : {}),
    ...(e.HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT_TIMEOUT !== undefined
      ? { scriptTimeoutMs: Math.round(e.HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT_TIMEOUT * 1000) }
      : {}),
    ...(e.HERMES_WEBUI_PREFILL_CONTEXT_MAX_CHARS !== undefined ? { maxChars: e.HERMES_WEBUI_PREFILL_CONTEXT_MAX_CHARS } : {}),
  };
}

/** `mediaAllowedRoots` when any absolute folder is named (absent otherwise, like `embedOrigins`). */
function mediaRoots(values: (string | undefined)[], home: string): { mediaAllowedRoots?: string[] } {
  const roots = [
    ...new Set(
      values
        .flatMap((v) => (v ?? '').split(/[:,]/))
        .map((r) => expandHome(r.trim(), home))
        .filter((r) => r.startsWith('/')),
    ),
  ];
  return roots.length ? { mediaAllowedRoots: roots } : {};
}

/** Loopback hosts: the only ones the server binds while no password is set. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Why the server must not start on `config.host`, or null when it may: without a password
 * (HERMES_WEBUI_PASSWORD or one stored in settings), only loopback addresses are allowed.
 */
export function bindRefusal(config: Pick<Config, 'host'> & { auth: Pick<AuthConfig, 'password'> }, storedPasswordHash: unknown): string | null {
  if (isLoopbackHost(config.host) || config.auth.password || (typeof storedPasswordHash === 'string' && storedPasswordHash)) return null;
  return (
    `refusing to listen on ${config.host} without a password: anyone who can reach it could run commands on this machine. ` +
    `Set one with HERMES_WEBUI_PASSWORD=<password>, or start Hermes on 127.0.0.1 and set it in Settings > Security, ` +
    `then bind to ${config.host}. Or keep 127.0.0.1 and reach it through an SSH tunnel (ssh -N -L 8787:127.0.0.1:8787 host).`
  );
}
