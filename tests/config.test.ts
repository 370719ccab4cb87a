import { describe, expect, it } from 'vitest';
import { ConfigError, isLoopbackHost, parseConfig } from '../src/config.js';

const home = '/home/ada';

/** Everything parseConfig returns besides paths, host, port, storage and upload size, at its default. */
const DEFAULTS_BEYOND_PATHS = {
  auth: {
    sessionTtlSeconds: 30 * 86400,
    cookieName: 'hermes_session',
    trustForwardedProto: false,
    trustForwardedHost: false,
    trustForwardedFor: false,
    allowedOrigins: [],
  },
  onboarding: { skip: false, open: false },
  modelsBudgetMs: 4000,
  scheduler: 'on',
  gitDestructive: false,
  runs: { resume: true, maxAttempts: 2 },
  chatBackend: 'builtin',
  chatBackendFixed: false,
  gatewayBaseUrlFixed: false,
  gateway: { baseUrl: 'http://127.0.0.1:8642', readTimeoutMs: 120_000 },
  serverLog: { maxBytes: 5 * 1024 * 1024, keep: 3 },
  push: { allowLocal: false, subject: 'mailto:hermes-webui@users.noreply.github.com' },
  prefill: {},
};

describe('config', () => {
  it('defaults to ~/.hermes/webui on 127.0.0.1:8787 with fs storage', () => {
    expect(parseConfig({}, { home })).toEqual({
      hermesHome: '/home/ada/.hermes',
      stateDir: '/home/ada/.hermes/webui',
      host: '127.0.0.1',
      port: 8787,
      defaultWorkspace: '/home/ada/.hermes/webui/workspace',
      storage: 'fs',
      maxUploadBytes: 20 * 1024 * 1024,
      transfer: { maxExtractedBytes: 200 * 1024 * 1024, maxArchiveMembers: 10_000, folderZipMaxBytes: 1024 * 1024 * 1024, folderZipMaxFiles: 50_000 },
      ...DEFAULTS_BEYOND_PATHS,
    });
  });

  it('reads the Postgres and durable-run variables, and needs a database URL for postgres storage', () => {
    const c = parseConfig(
      {
        HERMES_WEBUI_STORAGE: 'postgres',
        HERMES_WEBUI_DATABASE_URL: 'postgres://u:p@db:5432/hermes',
        HERMES_WEBUI_RESUME_RUNS: '0',
        HERMES_WEBUI_RESUME_ATTEMPTS: '5',
        HERMES_WEBUI_INSTANCE_ID: 'web-1',
      },
      { home },
    );
    expect(c).toMatchObject({
      storage: 'postgres',
      databaseUrl: 'postgres://u:p@db:5432/hermes',
      runs: { resume: false, maxAttempts: 5 },
      instanceId: 'web-1',
    });
    expect(() => parseConfig({ HERMES_WEBUI_STORAGE: 'postgres' }, { home })).toThrow(
      /HERMES_WEBUI_DATABASE_URL: is required when HERMES_WEBUI_STORAGE=postgres/,
    );
    expect(() => parseConfig({ HERMES_WEBUI_DATABASE_URL: 'mysql://x' }, { home })).toThrow(
      /HERMES_WEBUI_DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/,
    );
    expect(() => parseConfig({ HERMES_WEBUI_RESUME_ATTEMPTS: '-1' }, { home })).toThrow(/HERMES_WEBUI_RESUME_ATTEMPTS: must be 0 or more/);
  });

  it('reads the incumbent archive and folder-zip caps', () => {
    const c = parseConfig({ HERMES_WEBUI_MAX_EXTRACTED_MB: '0.5', HERMES_WEBUI_FOLDER_ZIP_MAX_MB: '8', HERMES_WEBUI_FOLDER_ZIP_MAX_FILES: '100' }, { home });
    expect(c.transfer).toEqual({ maxExtractedBytes: 524288, maxArchiveMembers: 10_000, folderZipMaxBytes: 8 * 1024 * 1024, folderZipMaxFiles: 100 });
    expect(() => parseConfig({ HERMES_WEBUI_FOLDER_ZIP_MAX_FILES: '0' }, { home })).toThrow(/HERMES_WEBUI_FOLDER_ZIP_MAX_FILES: must be at least 1/);
    expect(() => parseConfig({ HERMES_WEBUI_MAX_EXTRACTED_MB: 'lots' }, { home })).toThrow(/HERMES_WEBUI_MAX_EXTRACTED_MB: must be a number/);
  });

  it('sizes the server log file from HERMES_WEBUI_LOG_MAX_MB and HERMES_WEBUI_LOG_BACKUPS', () => {
    expect(parseConfig({ HERMES_WEBUI_LOG_MAX_MB: '0.5', HERMES_WEBUI_LOG_BACKUPS: '0' }, { home }).serverLog).toEqual({ maxBytes: 524288, keep: 0 });
    expect(() => parseConfig({ HERMES_WEBUI_LOG_BACKUPS: '2.5' }, { home })).toThrow(/HERMES_WEBUI_LOG_BACKUPS: must be a whole number/);
  });

  it('derives the state dir from HERMES_HOME and honours every override', () => {
    expect(parseConfig({ HERMES_HOME: '/srv/h' }, { home }).stateDir).toBe('/srv/h/webui');
    const c = parseConfig(
      {
        HERMES_HOME: '~/alt',
        HERMES_WEBUI_STATE_DIR: '/data/state',
        HERMES_WEBUI_HOST: 'localhost',
        HERMES_WEBUI_PORT: '9000',
        HERMES_WEBUI_DEFAULT_WORKSPACE: '~/code',
        HERMES_WEBUI_STORAGE: 'memory',
        HERMES_WEBUI_MAX_UPLOAD_MB: '1.5',
      },
      { home },
    );
    expect(c).toEqual({
      hermesHome: '/home/ada/alt',
      stateDir: '/data/state',
      host: 'localhost',
      port: 9000,
      defaultWorkspace: '/home/ada/code',
      storage: 'memory',
      maxUploadBytes: Math.round(1.5 * 1024 * 1024),
      // Extraction follows the upload cap (10 ×) unless HERMES_WEBUI_MAX_EXTRACTED_MB says otherwise.
      transfer: { maxExtractedBytes: 15 * 1024 * 1024, maxArchiveMembers: 10_000, folderZipMaxBytes: 1024 * 1024 * 1024, folderZipMaxFiles: 50_000 },
      ...DEFAULTS_BEYOND_PATHS,
    });
  });

  it('reads the auth variables, and refuses bad ones with the variable named', () => {
    const c = parseConfig(
      {
        HERMES_WEBUI_PASSWORD: '  hunter22\n',
        HERMES_WEBUI_SESSION_TTL: '3600',
        HERMES_WEBUI_COOKIE_NAME: 'hermes_8788',
        HERMES_WEBUI_SECURE: 'yes',
        HERMES_WEBUI_TRUST_FORWARDED_PROTO: '1',
        HERMES_WEBUI_TRUST_FORWARDED_HOST: 'true',
        HERMES_WEBUI_TRUST_FORWARDED_FOR: 'off',
        HERMES_WEBUI_ALLOWED_ORIGINS: 'https://Hermes.Example.com/, http://10.0.0.2:8787',
      },
      { home },
    );
    expect(c.auth).toEqual({
      password: 'hunter22',
      sessionTtlSeconds: 3600,
      cookieName: 'hermes_8788',
      secureCookies: true,
      trustForwardedProto: true,
      trustForwardedHost: true,
      trustForwardedFor: false,
      allowedOrigins: ['https://hermes.example.com', 'http://10.0.0.2:8787'],
    });
    expect(() => parseConfig({ HERMES_WEBUI_SESSION_TTL: '10' }, { home })).toThrow(/HERMES_WEBUI_SESSION_TTL: must be at least 60 seconds/);
    expect(() => parseConfig({ HERMES_WEBUI_COOKIE_NAME: 'a;b' }, { home })).toThrow(/HERMES_WEBUI_COOKIE_NAME/);
    expect(() => parseConfig({ HERMES_WEBUI_SECURE: 'maybe' }, { home })).toThrow(/HERMES_WEBUI_SECURE: must be 1\/true/);
    expect(() => parseConfig({ HERMES_WEBUI_ALLOWED_ORIGINS: 'hermes.example.com' }, { home })).toThrow(/HERMES_WEBUI_ALLOWED_ORIGINS/);
  });

  it('treats empty variables as unset', () => {
    expect(parseConfig({ HERMES_WEBUI_PORT: '', HERMES_WEBUI_STORAGE: '' }, { home }).port).toBe(8787);
  });

  it('fails fast with one readable line per bad variable', () => {
    let error: unknown;
    try {
      parseConfig({ HERMES_WEBUI_PORT: 'eighty', HERMES_WEBUI_STORAGE: 'redis', HERMES_WEBUI_MAX_UPLOAD_MB: '-1' }, { home });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('HERMES_WEBUI_PORT: must be a number');
    expect(message).toContain('HERMES_WEBUI_STORAGE: must be "fs", "memory" or "postgres"');
    expect(message).toContain('HERMES_WEBUI_MAX_UPLOAD_MB: must be more than 0');
    expect(() => parseConfig({ HERMES_WEBUI_PORT: '70000' }, { home })).toThrow(/HERMES_WEBUI_PORT: must be 0-65535/);
  });

  it('knows loopback hosts', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '192.168.1.5', '::', 'example.com']) expect(isLoopbackHost(h), h).toBe(false);
  });

  it('reads the gateway backend variables, and refuses bad ones with the variable named', () => {
    const c = parseConfig(
      {
        HERMES_WEBUI_CHAT_BACKEND: 'Gateway',
        HERMES_WEBUI_GATEWAY_BASE_URL: 'http://10.0.0.5:8642/',
        HERMES_WEBUI_GATEWAY_API_KEY: ' sk-key \n',
        HERMES_WEBUI_GATEWAY_READ_TIMEOUT: '2.5',
      },
      { home },
    );
    expect(c.chatBackend).toBe('gateway');
    expect(c.gateway).toEqual({ baseUrl: 'http://10.0.0.5:8642', apiKey: 'sk-key', readTimeoutMs: 2500 });
    // The incumbent's other name for it.
    expect(parseConfig({ HERMES_WEBUI_CHAT_BACKEND: 'api_server' }, { home }).chatBackend).toBe('gateway');
    // This server's task scheduler can be turned off (another server, or Hermes' gateway, runs the jobs).
    expect(parseConfig({ HERMES_WEBUI_SCHEDULER: 'off' }, { home }).scheduler).toBe('off');
    expect(() => parseConfig({ HERMES_WEBUI_SCHEDULER: 'maybe' }, { home })).toThrow(/HERMES_WEBUI_SCHEDULER: must be on or off/);
    // The git panel changes the repository only when the operator opts in.
    expect(parseConfig({ HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE: '1' }, { home }).gitDestructive).toBe(true);
    expect(() => parseConfig({ HERMES_WEBUI_CHAT_BACKEND: 'python' }, { home })).toThrow(/HERMES_WEBUI_CHAT_BACKEND: must be "builtin" or "gateway"/);
    expect(() => parseConfig({ HERMES_WEBUI_GATEWAY_BASE_URL: 'localhost:8642' }, { home })).toThrow(/HERMES_WEBUI_GATEWAY_BASE_URL: must be an http\(s\) URL/);
    expect(() => parseConfig({ HERMES_WEBUI_GATEWAY_READ_TIMEOUT: 'soon' }, { home })).toThrow(
      /HERMES_WEBUI_GATEWAY_READ_TIMEOUT: must be a number of seconds/,
    );
  });
});
