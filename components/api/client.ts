import { msg, str } from '@lit/localize';
import type { Message, Session, SessionRow } from '../../src/shared/session.js';
import type { Project } from '../../src/ports/project-store.js';
import type { FileEntry } from '../../src/ports/workspace-files.js';

/** A session as the API returns it: metadata, counts and (a window of) its transcript. */
export type ApiSession = Session & {
  message_count: number;
  _messages_truncated?: boolean;
  _messages_offset?: number;
  pending_started_at?: number | null;
  todo_state?: { todos: Array<{ id: string; content: string; status: string }> };
  /** The session ordinary navigation shows for this id (a snapshot's live tip; else itself). */
  canonical_visible_session_id?: string | null;
  /** The incumbent's hint: a compression snapshot's live continuation. */
  continuation_session_id?: string | null;
  /** The live public share link, or null (GET /api/session). */
  share?: ShareLink | null;
};

/** A session's public read-only link (`url` is relative: `/share/<token>`). */
export interface ShareLink {
  token: string;
  url: string;
  created_at: number;
}
export type { Message, SessionRow };

// The server's own types, imported as types only (nothing of the server reaches the bundle).
import type { Catalog } from '../../src/agent/catalog/catalog.js';
import type { ProbeResult as ServerProbeResult } from '../../src/agent/catalog/probe.js';
import type { AgentInfo } from '../../src/agent/runtime.js';
import type { SessionProcessesResponse } from '../../src/shared/processes.js';
import type { ProviderRow, SetupProviderOption as OnboardingProvider } from '../../src/agent/setup.js';
export type { CatalogModel, ProbeErrorKind } from '../../src/agent/catalog/probe.js';
export type { AgentInfo } from '../../src/agent/runtime.js';
export type { ProviderRow, SetupProviderOption as OnboardingProvider } from '../../src/agent/setup.js';
export type { Project } from '../../src/ports/project-store.js';
export type { FileEntry } from '../../src/ports/workspace-files.js';
export type { AuthStatus, PendingApproval, PendingClarify } from './answer-types.js';
import type { AuthStatus, PendingApproval, PendingClarify } from './answer-types.js';

export interface Settings {
  theme: 'dark' | 'light' | 'system';
  /** A skin name (src/shared/skins.ts); one only the incumbent draws shows the default tokens. */
  skin?: string;
  send_key: 'enter' | 'ctrl+enter' | 'shift+enter';
  /** What Send does while a turn runs (the composer's busy input). */
  default_message_mode?: 'steer' | 'queue' | 'interrupt';
  show_thinking: boolean;
  /** Follow a streaming answer while the view is at the bottom (the incumbent's setting, default on). */
  auto_scroll_follow?: boolean;
  font_size: 'small' | 'default' | 'large' | 'xlarge';
  /** "auto" (the browser's languages choose) or a locale code. */
  language?: string;
  default_workspace: string;
  bot_name: string;
  /** Read-only: whether a password is required, and whether HERMES_WEBUI_PASSWORD sets it. */
  auth_enabled?: boolean;
  password_auth_enabled?: boolean;
  password_env_var?: boolean;
  /** Who answers turns: the built-in agent or a Hermes Agent gateway (its API server). */
  chat_backend?: 'builtin' | 'gateway';
  /** The gateway's API server (the default, http://127.0.0.1:8642, when none is stored). */
  gateway_base_url?: string;
  /** HERMES_WEBUI_CHAT_BACKEND decides who answers: Settings only shows it. */
  chat_backend_fixed?: boolean;
  [key: string]: unknown;
}

export interface ModelOption {
  id: string;
  label: string;
  provider: string;
}

/** GET /api/models and POST /api/models/refresh: the server's catalog, plus a flat list for older code. */
export type ModelCatalog = Catalog & { models: ModelOption[]; error?: string };

export type ProviderId = OnboardingProvider['id'];

/** GET /api/onboarding/status (also what POST /api/onboarding/setup answers). */
export interface OnboardingStatus {
  /** Show the wizard. */
  needed: boolean;
  completed: boolean;
  onboarding_completed: boolean;
  skip: boolean;
  /** False when this browser is not on the server's machine and no password is set. */
  may_setup: boolean;
  config_path: string;
  env_path: string;
  config_exists: boolean;
  /** config.yaml does not parse: the message names line and column; the file is left alone. */
  config_error: string | null;
  agent_runtime: string;
  provider: { id: string | null; usable: boolean; error: string | null };
  default_model: string | null;
  default_workspace: string;
  /** The incumbent's shape: the saved workspaces and the last one used. */
  workspaces: { items: Array<{ path: string; name: string }>; last: string | null };
  password_enabled: boolean;
  bot_name: string;
  providers: OnboardingProvider[];
  /** Who answers turns now: the built-in agent, or a Hermes Agent gateway at `gateway_base_url`. */
  backend: 'builtin' | 'gateway';
  gateway_base_url: string | null;
  /** HERMES_WEBUI_CHAT_BACKEND decides who answers: the wizard offers no switch (and no gateway option). */
  backend_fixed: boolean;
}

/** How a gateway path is named for people (getters: read in the language of the moment). */
export const AGENT_PATHS: Record<string, string> = {
  get runs() {
    return msg('runs API');
  },
  get chat_completions() {
    return msg('chat completions');
  },
};

/** POST /api/onboarding/probe: a probe that ran (HTTP 200 either way); for the gateway, the Hermes Agent found there. */
export type ProbeResult = Exclude<ServerProbeResult, { ok: true }> | (Extract<ServerProbeResult, { ok: true }> & { agent?: AgentInfo });

export interface SetupRequest {
  provider: string;
  /** Every provider but `gateway` (whose own agent picks its model). */
  model?: string;
  base_url?: string;
  api_key?: string;
  workspace?: string;
  password?: string;
}

/** An API failure with the server's own message (`{"error": "..."}`) and status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * Whether the server answers: `unreachable` when a request could not be made at all (status 0),
 * `reachable` when any answer came back. The connection store listens.
 */
export const connectivity = new EventTarget();

/**
 * Where the API is and how to prove who is calling. The app keeps the defaults (same origin,
 * no token); an embedded <hermes-chat> points it at its `server` with its embed `token`.
 */
const apiConfig: { base: string; token: string | null } = { base: '', token: null };

/**
 * @example
 * configureApi({ base: 'https://hermes.example.com', token: 'hemb_…' });
 */
export function configureApi(options: { base?: string | null; token?: string | null }): void {
  if (options.base !== undefined) apiConfig.base = (options.base ?? '').replace(/\/+$/, '');
  if (options.token !== undefined) apiConfig.token = options.token || null;
}

/** An API path as a URL to fetch (on the configured server). */
export function apiUrl(path: string): string {
  return apiConfig.base + path;
}

/** A URL the browser fetches by itself (EventSource, links, images): the token rides in `?token=`. */
export function apiLinkUrl(path: string): string {
  if (!apiConfig.token) return apiUrl(path);
  return `${apiUrl(path)}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(apiConfig.token)}`;
}

function authHeaders(): Record<string, string> {
  return apiConfig.token ? { Authorization: `Bearer ${apiConfig.token}` } : {};
}

/**
 * Sign-in events for the app: `signed-out` when the server says this browser is no longer
 * signed in (a 401 "Authentication required" outside embed mode). <hermes-app> goes to /login.
 */
export const authEvents = new EventTarget();

export const CSRF_HEADER = 'X-Hermes-CSRF-Token';
/** The server's word for a missing or stale CSRF token (403). */
export const SESSION_EXPIRED = 'Session expired - reload the page';
/** The server's word for a request without a valid sign-in (401). */
export const AUTH_REQUIRED = 'Authentication required';

/**
 * The CSRF token of this browser's sign-in, as GET /api/auth/status tells it: `undefined`
 * until asked, `null` when there is none (no password, or not signed in). Asked for lazily,
 * before the first state-changing request; one request in flight is shared.
 */
let csrf: string | null | undefined;
let csrfInFlight: Promise<string | null> | null = null;
/** Bumped by resetCsrfToken, so an answer asked for before the reset is not kept. */
let csrfGeneration = 0;

function csrfToken(refresh = false): Promise<string | null> {
  // An embed token is its own credential: no cookie, no CSRF token.
  if (apiConfig.token) return Promise.resolve(null);
  if (csrfInFlight) return csrfInFlight;
  if (!refresh && csrf !== undefined) return Promise.resolve(csrf);
  const generation = csrfGeneration;
  const asking = fetch(apiUrl('/api/auth/status'), { credentials: 'same-origin', cache: 'no-store' })
    .then(async (res) => {
      const status = res.ok ? await res.json() : {};
      const token = typeof status?.csrf_token === 'string' ? (status.csrf_token as string) : null;
      if (generation === csrfGeneration) csrf = token;
      return token;
    })
    // Unreachable: the request itself will say so; ask again next time.
    .catch(() => null)
    .finally(() => {
      if (csrfInFlight === asking) csrfInFlight = null;
    });
  csrfInFlight = asking;
  return asking;
}

function rememberCsrf(token: string | null): void {
  csrfGeneration++;
  csrfInFlight = null;
  csrf = token;
}

/** The embed token this client calls with, or null (the app itself: cookie and CSRF token). */
export function embedToken(): string | null {
  return apiConfig.token;
}

/**
 * The CSRF token for a state-changing request made outside `request` (an XHR upload): the known
 * one at once, so the request can start in the same call, else a promise of it (`attempt` > 0
 * asks the server again). Null with an embed token.
 */
export function csrfFor(attempt: number): string | null | Promise<string | null> {
  if (apiConfig.token) return null;
  if (attempt === 0 && !csrfInFlight && csrf !== undefined) return csrf;
  return csrfToken(attempt > 0);
}

/** Forgets the cached CSRF token (signing in, out, or changing the password changes it). */
export function resetCsrfToken(): void {
  csrfGeneration++;
  csrf = undefined;
  csrfInFlight = null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface RequestOptions {
  /** False: a 401 is the caller's business (signing out), not a reason to leave the page. */
  signOutOn401?: boolean;
  /** Sees the response's headers (an ETag) before its body is read. */
  seen?: (res: Response) => void;
  /**
   * No Authorization header (the embed token goes in the query instead): a simple request needs
   * no preflight, so an origin the server refuses still gets a readable 403.
   */
  bare?: boolean;
}

export async function request<T>(method: string, path: string, body?: unknown, init: RequestInit = {}, options: RequestOptions = {}): Promise<T> {
  const unsafe = !SAFE_METHODS.has(method.toUpperCase());
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      const token = unsafe ? await csrfToken(attempt > 0) : null;
      const { headers: extra, ...rest } = init;
      const headers = {
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(options.bare ? {} : authHeaders()),
        ...(token ? { [CSRF_HEADER]: token } : {}),
        ...(extra as Record<string, string> | undefined),
      };
      res = await fetch(apiUrl(path), {
        method,
        credentials: 'same-origin',
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        ...(Object.keys(headers).length ? { headers } : {}),
        ...rest,
      });
    } catch {
      connectivity.dispatchEvent(new Event('unreachable'));
      throw new ApiError(0, msg('The server cannot be reached. Check your connection.'));
    }
    connectivity.dispatchEvent(new Event('reachable'));
    options.seen?.(res);
    // Only a conditional request (If-None-Match) is answered 304: the caller's copy is current.
    if (res.status === 304) return undefined as T;
    const text = await res.text();
    let data: { error?: unknown; [key: string]: unknown } = {};
    try {
      data = text ? JSON.parse(text) : {};
    } catch {
      data = { error: text.slice(0, 200) };
    }
    if (res.ok) return data as T;
    const message = typeof data.error === 'string' ? data.error : msg(str`Request failed (${res.status})`);
    // A stale CSRF token (a new sign-in, a password set in another tab): ask once more.
    if (unsafe && res.status === 403 && message === SESSION_EXPIRED && attempt === 0 && !apiConfig.token) continue;
    if (res.status === 401 && message === AUTH_REQUIRED && !apiConfig.token) {
      resetCsrfToken();
      if (options.signOutOn401 !== false) authEvents.dispatchEvent(new Event('signed-out'));
    }
    throw new ApiError(res.status, message, data);
  }
}

const get = <T>(path: string) => request<T>('GET', path);
const post = <T>(path: string, body: unknown = {}) => request<T>('POST', path, body);
/** A query string from the defined values. */
export const q = (params: Record<string, string | number | boolean | undefined | null>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

/** One page of GET /api/sessions (docs/session-list-api.md); an unpaged answer has neither `pinned` nor `next_cursor`. */
export interface SessionListPage {
  sessions: SessionRow[];
  /** Every pinned row, beside the first page. */
  pinned?: SessionRow[];
  next_cursor?: string | null;
  total: number;
  archived_count: number;
  cron_count?: number; // task runs (source `cron`) of the profile; absent when none
  /** The profile whose rows these are (or the browser's, with all_profiles). */
  active_profile?: string;
}

/**
 * A page of the session list, or `page: null` when `etag` (from any page of the list) is still
 * current: then nothing in the list changed since it was given.
 */
async function sessionPage(o: {
  includeArchived?: boolean;
  /** Every profile's rows, not only the active one's. */
  allProfiles?: boolean;
  limit: number;
  cursor?: string | null;
  etag?: string | null;
  source?: 'cron'; // only task runs: the sidebar's Tasks filter
}): Promise<{ page: SessionListPage | null; etag: string | null }> {
  let etag: string | null = null;
  const path = `/api/sessions?${q({ include_archived: o.includeArchived ? 1 : undefined, all_profiles: o.allProfiles ? 1 : undefined, limit: o.limit, cursor: o.cursor, source: o.source })}`;
  const page = await request<SessionListPage | undefined>('GET', path, undefined, o.etag ? { headers: { 'If-None-Match': o.etag } } : {}, {
    seen: (res) => (etag = res.headers.get('ETag')),
  });
  return { page: page ?? null, etag };
}

/** The HTTP API, one function per endpoint the app uses. */
export const api = {
  sessionPage,
  /** The browser's profile's sessions, or every profile's with `allProfiles` (as the list). */
  search: (text: string, content = true, allProfiles = false) =>
    get<{ sessions: Array<SessionRow & { match_type: string; match_preview: string }> }>(
      `/api/sessions/search?${q({ q: text, content: content ? 1 : 0, all_profiles: allProfiles ? 1 : undefined })}`,
    ),
  session: (id: string, opts: { msgLimit?: number; msgBefore?: number } = {}) =>
    get<{ session: ApiSession }>(`/api/session?${q({ session_id: id, msg_limit: opts.msgLimit, msg_before: opts.msgBefore })}`).then((r) => r.session),
  /** Stored indexes of the session's messages holding `text` (GET /api/session/find). */
  findInSession: (id: string, text: string) =>
    get<{ indexes: number[]; count: number; message_count: number }>(`/api/session/find?${q({ session_id: id, q: text })}`),
  newSession: (body: { workspace?: string; model?: string | null; project_id?: string | null } = {}) =>
    post<{ session: ApiSession }>('/api/session/new', body).then((r) => r.session),
  rename: (id: string, title: string) => post<{ session: SessionRow }>('/api/session/rename', { session_id: id, title }),
  update: (id: string, patch: { model?: string | null; workspace?: string }) =>
    post<{ session: ApiSession }>('/api/session/update', { session_id: id, ...patch }).then((r) => r.session),
  remove: (id: string) => post<{ ok: true }>('/api/session/delete', { session_id: id }),
  /** The session's background processes (`terminal` background:true). */
  sessionProcesses: (id: string) => get<SessionProcessesResponse>(`/api/session/processes?${q({ session_id: id })}`).then((r) => r.processes),
  pin: (id: string, pinned: boolean) => post<{ session: SessionRow }>('/api/session/pin', { session_id: id, pinned }),
  archive: (id: string, archived: boolean) => post<{ session: SessionRow }>('/api/session/archive', { session_id: id, archived }),
  move: (id: string, projectId: string | null) => post<{ session: SessionRow }>('/api/session/move', { session_id: id, project_id: projectId }),
  clear: (id: string) => post<{ session: SessionRow }>('/api/session/clear', { session_id: id }),
  truncate: (id: string, keepCount: number) =>
    post<{ session: ApiSession }>('/api/session/truncate', { session_id: id, keep_count: keepCount }).then((r) => r.session),
  branch: (id: string, keepCount?: number) =>
    post<{ session_id: string; title: string }>('/api/session/branch', { session_id: id, ...(keepCount !== undefined ? { keep_count: keepCount } : {}) }),
  duplicate: (id: string) => post<{ session: ApiSession }>('/api/session/duplicate', { session_id: id }).then((r) => r.session),
  /** The session's live share link, or null, without its transcript. */
  shareOf: (id: string) => get<{ session: ApiSession }>(`/api/session?${q({ session_id: id, messages: 0 })}`).then((r) => r.session.share ?? null),
  shareCreate: (id: string) => post<{ share: ShareLink }>('/api/share/create', { session_id: id }).then((r) => r.share),
  shareRevoke: (id: string) => post<{ ok: true }>('/api/share/revoke', { session_id: id }),
  exportUrl: (id: string, format: 'json' | 'md' | 'html') => apiLinkUrl(`/api/session/export?${q({ session_id: id, format })}`),
  importSession: (data: unknown) => post<{ session: ApiSession }>('/api/session/import', data).then((r) => r.session),
  /** Hermes' own conversation (read from state.db) as a writable session here; `imported` false when it already was. */
  importCliSession: (sessionId: string) => post<{ session: ApiSession; imported: boolean }>('/api/session/import_cli', { session_id: sessionId }),

  projects: (allProfiles = false) => get<{ projects: Project[] }>(`/api/projects${allProfiles ? '?all_profiles=1' : ''}`).then((r) => r.projects),
  createProject: (name: string, color: string | null) => post<{ project: Project }>('/api/projects/create', { name, color }).then((r) => r.project),
  renameProject: (id: string, name: string, color?: string | null) =>
    post<{ project: Project }>('/api/projects/rename', { project_id: id, name, ...(color !== undefined ? { color } : {}) }).then((r) => r.project),
  deleteProject: (id: string) => post<{ ok: true }>('/api/projects/delete', { project_id: id }),

  settings: () => get<Settings>('/api/settings'),
  saveSettings: (patch: Partial<Settings>) => post<Settings>('/api/settings', patch),
  models: () => get<ModelCatalog>('/api/models'),
  /** Rebuilds the catalog now (asks every provider again). */
  refreshModels: () => post<ModelCatalog>('/api/models/refresh'),
  setDefaultModel: (model: string) => post<{ ok: true; default_model: string }>('/api/default-model', { model }),

  workspaces: () => get<{ workspaces: Array<{ path: string; name: string }>; last: string }>('/api/workspaces'),
  list: (sid: string, path = '') => get<{ entries: FileEntry[]; path: string; workspace: string }>(`/api/list?${q({ session_id: sid, path })}`),
  file: (sid: string, path: string) => get<{ path: string; content: string; size: number; lines: number }>(`/api/file?${q({ session_id: sid, path })}`),
  rawUrl: (sid: string, path: string, download = false) => apiLinkUrl(`/api/file/raw?${q({ session_id: sid, path, download: download ? 1 : undefined })}`),
  saveFile: (sid: string, path: string, content: string) => post('/api/file/save', { session_id: sid, path, content }),
  createFile: (sid: string, path: string) => post('/api/file/create', { session_id: sid, path, content: '' }),
  createDir: (sid: string, path: string) => post('/api/file/create-dir', { session_id: sid, path }),
  renameFile: (sid: string, path: string, newName: string) => post<{ path: string }>('/api/file/rename', { session_id: sid, path, new_name: newName }),
  deleteFile: (sid: string, path: string, recursive: boolean) => post('/api/file/delete', { session_id: sid, path, recursive }),

  startChat: (body: { session_id: string; message: string; model?: string | null; attachments?: string[]; skill?: string }) =>
    post<{ stream_id: string; session_id: string; title: string; pending_started_at: number }>('/api/chat/start', body),
  cancel: (streamId: string) => post<{ ok: boolean; cancelled: boolean }>('/api/chat/cancel', { stream_id: streamId }),
  streamStatus: (streamId: string) => get<{ active: boolean; replay_available: boolean }>(`/api/chat/stream/status?${q({ stream_id: streamId })}`),
  pendingApproval: (sid: string) => get<{ pending: PendingApproval | null; pending_count: number }>(`/api/approval/pending?${q({ session_id: sid })}`),
  respondApproval: (sid: string, choice: 'once' | 'session' | 'always' | 'deny', approvalId?: string) =>
    post('/api/approval/respond', { session_id: sid, choice, ...(approvalId ? { approval_id: approvalId } : {}) }),
  pendingClarify: (sid: string) => get<{ pending: PendingClarify | null }>(`/api/clarify/pending?${q({ session_id: sid })}`),
  respondClarify: (sid: string, response: string, clarifyId?: string) =>
    post('/api/clarify/respond', { session_id: sid, response, ...(clarifyId ? { clarify_id: clarifyId } : {}) }),
  setYolo: (sid: string, enabled: boolean) => post<{ yolo_enabled: boolean }>('/api/session/yolo', { session_id: sid, enabled }),
  /** What an embed token allows (`{embedded: false}` for the app itself). Token in the query: no preflight, so refusals are readable. */

  /** Whether a password is needed and this browser is signed in (with its CSRF token). */
  authStatus: () =>
    get<AuthStatus>('/api/auth/status').then((status) => {
      if (!apiConfig.token) rememberCsrf(status.csrf_token ?? null);
      return status;
    }),
  /** Ends this browser's sign-in (the cookie is cleared). A 401 means it already had ended. */
  logout: () => request<{ ok: true }>('POST', '/api/auth/logout', {}, {}, { signOutOn401: false }).finally(resetCsrfToken),
  /** Sets the first password, or changes it (the current one is then required). */
  setPassword: (newPassword: string, currentPassword?: string) =>
    post<Settings>('/api/settings', { _set_password: newPassword, ...(currentPassword !== undefined ? { _current_password: currentPassword } : {}) }).finally(
      resetCsrfToken,
    ),
  /** Removes the password (anyone who can reach the server may then use it). */
  clearPassword: (currentPassword: string) =>
    post<Settings>('/api/settings', { _clear_password: true, _current_password: currentPassword }).finally(resetCsrfToken),
  onboardingStatus: () => get<OnboardingStatus>('/api/onboarding/status'),
  /** Asks a provider for its models with these settings (an omitted key: the saved one). */
  probe: (body: { provider: string; base_url?: string; api_key?: string }) => post<ProbeResult>('/api/onboarding/probe', body),
  /** Writes config.yaml / .env (and the password, signing this browser in). Answers the new status. */
  setup: (body: SetupRequest) => post<OnboardingStatus>('/api/onboarding/setup', body).finally(() => body.password && resetCsrfToken()),
  /** Marks the wizard done (also "Skip"). */
  completeOnboarding: () => post<{ ok: true; completed: true }>('/api/onboarding/complete'),

  providers: () => get<{ active_provider: string | null; providers: ProviderRow[] }>('/api/providers'),
  /** Adds or replaces a provider's key. */
  saveProviderKey: (provider: string, apiKey: string) =>
    post<{ ok: true; provider: string; action: 'updated'; row: ProviderRow }>('/api/providers', { provider, api_key: apiKey }),
  /** Removes a provider's key (a custom endpoint: the whole endpoint). */
  removeProvider: (provider: string) => post<{ ok: true }>('/api/providers/delete', { provider }),
  /** Adds or replaces a custom OpenAI-compatible endpoint (`name`: [a-z0-9_-]{1,40}). */
  saveSelfHosted: (body: { name: string; base_url: string; api_key?: string; models?: string[] }) =>
    post<{ ok: true; provider: ProviderRow }>('/api/providers/self-hosted', body),

  embedWhoami: () =>
    request<{ embedded: boolean; origin?: string; session_id?: string | null; expires_at?: number }>(
      'GET',
      apiConfig.token ? `/api/embed/whoami?${q({ token: apiConfig.token })}` : '/api/embed/whoami',
      undefined,
      {},
      { bare: true },
    ),
};
