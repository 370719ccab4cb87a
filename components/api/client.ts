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
};
export type { Message, SessionRow };

// The server's own types, imported as types only (nothing of the server reaches the bundle).
export type { Project } from '../../src/ports/project-store.js';
export type { FileEntry } from '../../src/ports/workspace-files.js';

export interface Settings {
  theme: 'dark' | 'light' | 'system';
  send_key: 'enter' | 'ctrl+enter' | 'shift+enter';
  show_thinking: boolean;
  font_size: 'small' | 'default' | 'large' | 'xlarge';
  default_workspace: string;
  bot_name: string;
  [key: string]: unknown;
}

export interface ModelOption {
  id: string;
  label: string;
  provider: string;
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

async function request<T>(method: string, path: string, body?: unknown, init: RequestInit = {}): Promise<T> {
  let res: Response;
  try {
    const headers = { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...authHeaders() };
    res = await fetch(apiUrl(path), {
      method,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(Object.keys(headers).length ? { headers } : {}),
      ...init,
    });
  } catch {
    connectivity.dispatchEvent(new Event('unreachable'));
    throw new ApiError(0, 'The server cannot be reached. Check your connection.');
  }
  connectivity.dispatchEvent(new Event('reachable'));
  const text = await res.text();
  let data: any = {};
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    data = { error: text.slice(0, 200) };
  }
  if (!res.ok) throw new ApiError(res.status, typeof data.error === 'string' ? data.error : `Request failed (${res.status})`, data);
  return data as T;
}

const get = <T>(path: string) => request<T>('GET', path);
const post = <T>(path: string, body: unknown = {}) => request<T>('POST', path, body);
const q = (params: Record<string, string | number | boolean | undefined | null>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

/** The HTTP API, one function per endpoint the app uses. */
export const api = {
  sessions: (includeArchived = false) => get<{ sessions: SessionRow[]; total: number; archived_count: number }>(`/api/sessions?${q({ include_archived: includeArchived ? 1 : 0 })}`),
  search: (text: string, content = true) => get<{ sessions: Array<SessionRow & { match_type: string; match_preview: string }> }>(`/api/sessions/search?${q({ q: text, content: content ? 1 : 0 })}`),
  session: (id: string, opts: { msgLimit?: number; msgBefore?: number } = {}) =>
    get<{ session: ApiSession }>(`/api/session?${q({ session_id: id, msg_limit: opts.msgLimit, msg_before: opts.msgBefore })}`).then((r) => r.session),
  newSession: (body: { workspace?: string; model?: string | null; project_id?: string | null } = {}) => post<{ session: ApiSession }>('/api/session/new', body).then((r) => r.session),
  rename: (id: string, title: string) => post<{ session: SessionRow }>('/api/session/rename', { session_id: id, title }),
  update: (id: string, patch: { model?: string | null; workspace?: string }) => post<{ session: ApiSession }>('/api/session/update', { session_id: id, ...patch }).then((r) => r.session),
  remove: (id: string) => post<{ ok: true }>('/api/session/delete', { session_id: id }),
  pin: (id: string, pinned: boolean) => post<{ session: SessionRow }>('/api/session/pin', { session_id: id, pinned }),
  archive: (id: string, archived: boolean) => post<{ session: SessionRow }>('/api/session/archive', { session_id: id, archived }),
  move: (id: string, projectId: string | null) => post<{ session: SessionRow }>('/api/session/move', { session_id: id, project_id: projectId }),
  clear: (id: string) => post<{ session: SessionRow }>('/api/session/clear', { session_id: id }),
  truncate: (id: string, keepCount: number) => post<{ session: ApiSession }>('/api/session/truncate', { session_id: id, keep_count: keepCount }).then((r) => r.session),
  branch: (id: string, keepCount?: number) => post<{ session_id: string; title: string }>('/api/session/branch', { session_id: id, ...(keepCount !== undefined ? { keep_count: keepCount } : {}) }),
  duplicate: (id: string) => post<{ session: ApiSession }>('/api/session/duplicate', { session_id: id }).then((r) => r.session),
  exportUrl: (id: string, format: 'json' | 'md') => apiLinkUrl(`/api/session/export?${q({ session_id: id, format })}`),
  importSession: (data: unknown) => post<{ session: ApiSession }>('/api/session/import', data).then((r) => r.session),

  projects: () => get<{ projects: Project[] }>('/api/projects').then((r) => r.projects),
  createProject: (name: string, color: string | null) => post<{ project: Project }>('/api/projects/create', { name, color }).then((r) => r.project),
  renameProject: (id: string, name: string, color?: string | null) => post<{ project: Project }>('/api/projects/rename', { project_id: id, name, ...(color !== undefined ? { color } : {}) }).then((r) => r.project),
  deleteProject: (id: string) => post<{ ok: true }>('/api/projects/delete', { project_id: id }),

  settings: () => get<Settings>('/api/settings'),
  saveSettings: (patch: Partial<Settings>) => post<Settings>('/api/settings', patch),
  models: () => get<{ default_model: string | null; models: ModelOption[] }>('/api/models'),
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

  startChat: (body: { session_id: string; message: string; model?: string | null; attachments?: string[] }) =>
    post<{ stream_id: string; session_id: string; title: string; pending_started_at: number }>('/api/chat/start', body),
  cancel: (streamId: string) => post<{ ok: boolean; cancelled: boolean }>('/api/chat/cancel', { stream_id: streamId }),
  streamStatus: (streamId: string) => get<{ active: boolean; replay_available: boolean }>(`/api/chat/stream/status?${q({ stream_id: streamId })}`),
  pendingApproval: (sid: string) => get<{ pending: PendingApproval | null; pending_count: number }>(`/api/approval/pending?${q({ session_id: sid })}`),
  respondApproval: (sid: string, choice: 'once' | 'session' | 'always' | 'deny', approvalId?: string) =>
    post('/api/approval/respond', { session_id: sid, choice, ...(approvalId ? { approval_id: approvalId } : {}) }),
  pendingClarify: (sid: string) => get<{ pending: PendingClarify | null }>(`/api/clarify/pending?${q({ session_id: sid })}`),
  respondClarify: (sid: string, response: string, clarifyId?: string) => post('/api/clarify/respond', { session_id: sid, response, ...(clarifyId ? { clarify_id: clarifyId } : {}) }),
  setYolo: (sid: string, enabled: boolean) => post<{ yolo_enabled: boolean }>('/api/session/yolo', { session_id: sid, enabled }),
  /** What an embed token allows (`{embedded: false}` for the app itself). Token in the query: no preflight, so refusals are readable. */
  embedWhoami: () => request<{ embedded: boolean; origin?: string; session_id?: string | null; expires_at?: number }>('GET', apiConfig.token ? `/api/embed/whoami?${q({ token: apiConfig.token })}` : '/api/embed/whoami', undefined, { headers: {} }),
};

export interface PendingApproval {
  approval_id: string;
  command: string;
  description: string;
  pattern_keys: string[];
  choices: string[];
}

export interface PendingClarify {
  clarify_id: string;
  question: string;
  choices_offered: string[];
}

/**
 * Uploads one file with progress (fetch cannot report upload progress; XHR can).
 * Resolves with the stored attachment.
 */
export function upload(sessionId: string, file: File, onProgress?: (fraction: number) => void): Promise<{ filename: string; path: string; size: number; mime: string; is_image: boolean }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl('/api/upload'));
    if (apiConfig.token) xhr.setRequestHeader('Authorization', `Bearer ${apiConfig.token}`);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress?.(e.loaded / e.total);
    xhr.onload = () => {
      let body: any = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status === 200) resolve(body);
      else reject(new ApiError(xhr.status, body.error ?? `Upload failed (${xhr.status})`));
    };
    xhr.onerror = () => reject(new ApiError(0, 'Upload failed: the server cannot be reached'));
    const form = new FormData();
    form.set('session_id', sessionId);
    form.set('file', file, file.name);
    xhr.send(form);
  });
}
