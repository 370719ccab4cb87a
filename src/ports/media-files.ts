/**
 * Files an assistant answer points at (`MEDIA:<path>`, links to workspace files), served by
 * `GET /api/media`. An implementation finds `path` in one of the session's allowed roots — its
 * workspace, its attachment folder, and the Hermes home's media caches — with `..` and symlinks
 * resolved before the check, and refuses anything else with Forbidden (NotFound when it is inside
 * a root but missing).
 */
/** `extra`: a folder the operator allowed (MEDIA_ALLOWED_ROOTS, HERMES_MEDIA_ALLOW_DIRS). */
export type MediaRoot = 'workspace' | 'attachments' | 'hermes' | 'extra';

export interface MediaRequest {
  /** As the answer gave it: absolute, `~/…`, or relative to the workspace. */
  path: string;
  /** The session's canonical workspace. */
  workspace: string;
  sessionId: string;
}

export interface MediaFile {
  /** The file's own name (after symlinks), for Content-Disposition. */
  name: string;
  size: number;
  mtimeMs: number;
  root: MediaRoot;
  /** Bytes `start`…`end` inclusive. */
  read(start: number, end: number): ReadableStream<Uint8Array>;
}

export interface MediaFiles {
  open(request: MediaRequest): Promise<MediaFile>;
}
