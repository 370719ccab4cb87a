import { msg, str } from '@lit/localize';
import { ApiError, AUTH_REQUIRED, CSRF_HEADER, SESSION_EXPIRED, apiUrl, authEvents, csrfFor, embedToken, resetCsrfToken } from './client.js';

/** Files sent with upload progress: chat attachments, and files into a workspace folder (XHR: fetch cannot report upload progress). */
type Uploaded = { filename: string; path: string; size: number; mime: string; is_image: boolean };

/**
 * Uploads one file with progress (fetch cannot report upload progress; XHR can).
 * Resolves with the stored attachment. Carries the CSRF token like every other POST, and
 * retries once with a fresh one when the server says it is stale.
 */
export function upload(sessionId: string, file: File, onProgress?: (fraction: number) => void): Promise<Uploaded> {
  return postFile<Uploaded>('/api/upload', { session_id: sessionId }, file, onProgress);
}

/** The answer of POST /api/workspace/upload for one file: an archive comes back extracted (or why not). */
export type WorkspaceUploaded = Uploaded & { extracted: boolean; extract_error?: string; extracted_count?: number };

/** Uploads one file into folder `dir` of the session's workspace ('' is its root). */
export function uploadToWorkspace(sessionId: string, dir: string, file: File, onProgress?: (fraction: number) => void): Promise<WorkspaceUploaded> {
  return postFile<WorkspaceUploaded>('/api/workspace/upload', { session_id: sessionId, path: dir }, file, onProgress);
}

/** A link that downloads folder `dir` of the session's workspace as a zip (GET, so no CSRF token). */
export function folderDownloadUrl(sessionId: string, dir: string): string {
  return apiUrl(`/api/folder/download?${new URLSearchParams({ session_id: sessionId, path: dir })}`);
}

async function postFile<T>(path: string, fields: Record<string, string>, file: File, onProgress?: (fraction: number) => void): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    // Known already (or not needed): the request starts at once, in this very call.
    const pending = csrfFor(attempt);
    const token = pending instanceof Promise ? await pending : pending;
    try {
      return (await uploadOnce(path, fields, file, token, onProgress)) as T;
    } catch (err) {
      const e = err as ApiError;
      if (attempt === 0 && e.status === 403 && e.message === SESSION_EXPIRED && !embedToken()) continue;
      throw err;
    }
  }
}

function uploadOnce(
  path: string,
  fields: Record<string, string>,
  file: File,
  csrfValue: string | null,
  onProgress?: (fraction: number) => void,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    const bearer = embedToken();
    if (bearer) xhr.setRequestHeader('Authorization', `Bearer ${bearer}`);
    if (csrfValue) xhr.setRequestHeader(CSRF_HEADER, csrfValue);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress?.(e.loaded / e.total);
    xhr.onload = () => {
      let body: { error?: unknown; [key: string]: unknown } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status === 200) return resolve(body);
      const message = typeof body.error === 'string' ? body.error : msg(str`Upload failed (${xhr.status})`);
      if (xhr.status === 401 && message === AUTH_REQUIRED && !embedToken()) {
        resetCsrfToken();
        authEvents.dispatchEvent(new Event('signed-out'));
      }
      reject(new ApiError(xhr.status, message, body));
    };
    xhr.onerror = () => reject(new ApiError(0, msg('Upload failed: the server cannot be reached')));
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    form.set('file', file, file.name);
    xhr.send(form);
  });
}
