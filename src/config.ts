import { z } from 'zod';

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
  storage: 'fs' | 'memory';
  maxUploadBytes: number;
  /** Origins allowed to embed <hermes-chat> (`HERMES_WEBUI_EMBED_ORIGINS`); absent when none. */
  embedOrigins?: string[];
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

const EnvSchema = z.object({
  HERMES_HOME: nonEmpty.optional(),
  HERMES_WEBUI_STATE_DIR: nonEmpty.optional(),
  HERMES_WEBUI_HOST: nonEmpty.default('127.0.0.1'),
  HERMES_WEBUI_PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0-65535')
    .max(65535, 'must be 0-65535')
    .default(8787),
  HERMES_WEBUI_DEFAULT_WORKSPACE: nonEmpty.optional(),
  HERMES_WEBUI_STORAGE: z.enum(['fs', 'memory'], { error: 'must be "fs" or "memory"' }).default('fs'),
  HERMES_WEBUI_MAX_UPLOAD_MB: z.coerce
    .number({ error: 'must be a number' })
    .positive('must be more than 0')
    .max(4096, 'must be at most 4096')
    .default(20),
  HERMES_WEBUI_EMBED_ORIGINS: z
    .string()
    .transform((text, ctx) => {
      const origins: string[] = [];
      for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
        const origin = originOf(part);
        if (!origin) {
          ctx.addIssue({ code: 'custom', message: `"${part}" is not an origin (like https://example.com)` });
          return z.NEVER;
        }
        if (!origins.includes(origin)) origins.push(origin);
      }
      return origins;
    })
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
  const hermesHome = expandHome(e.HERMES_HOME ?? joinPath(options.home, '.hermes'), options.home);
  const stateDir = expandHome(e.HERMES_WEBUI_STATE_DIR ?? joinPath(hermesHome, 'webui'), options.home);
  return {
    hermesHome,
    stateDir,
    host: e.HERMES_WEBUI_HOST,
    port: e.HERMES_WEBUI_PORT,
    defaultWorkspace: expandHome(e.HERMES_WEBUI_DEFAULT_WORKSPACE ?? joinPath(stateDir, 'workspace'), options.home),
    storage: e.HERMES_WEBUI_STORAGE,
    maxUploadBytes: Math.round(e.HERMES_WEBUI_MAX_UPLOAD_MB * 1024 * 1024),
    ...(e.HERMES_WEBUI_EMBED_ORIGINS?.length ? { embedOrigins: e.HERMES_WEBUI_EMBED_ORIGINS } : {}),
  };
}

/** Loopback hosts are the only ones allowed until authentication exists. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}
