/**
 * Bulk file transfer with a workspace: uploads into a folder, archive extraction and folder
 * downloads as zip. Paths are relative to `root` (a session's workspace) and go through the same
 * sandbox as WorkspaceFiles: `..`, absolute paths and symlinks that lead out are Forbidden.
 */

/** The incumbent's member cap: a tiny archive of millions of empty files slips under any byte cap. */
export const MAX_ARCHIVE_MEMBERS = 10_000;

export interface TransferLimits {
  /** Bytes an archive may expand to, counted while streaming (not trusted from headers). */
  maxExtractedBytes: number;
  maxArchiveMembers: number;
  folderZipMaxBytes: number;
  folderZipMaxFiles: number;
}

export interface UploadedFile {
  /** The name it was saved under (sanitised, de-duplicated as `name-1.ext` …). */
  filename: string;
  /** Absolute path, as the incumbent answers. */
  path: string;
  size: number;
}

export interface Extraction {
  /** Absolute path of the new folder the archive was extracted into. */
  dest: string;
  /** Extracted files, relative to the folder the archive was extracted in (`<stem>/a.txt`). */
  files: string[];
  extracted: number;
}

export interface FolderZip {
  name: string;
  body: ReadableStream<Uint8Array>;
}

export interface WorkspaceTransfer {
  /** Writes a new file into folder `dir` (created when missing); never overwrites. */
  upload(root: string, dir: string, filename: string, bytes: Uint8Array): Promise<UploadedFile>;
  /**
   * Extracts a zip or tar(.gz) into a new folder `<dir>/<stem>` of the workspace, all or nothing:
   * BadRequest for traversal, absolute names, links, devices, or past the limits.
   */
  extractInto(root: string, dir: string, filename: string, bytes: Uint8Array): Promise<Extraction>;
  /** The same, into the session's upload folder (where the incumbent's `/api/upload/extract` puts it). */
  extractAttachment(sessionId: string, filename: string, bytes: Uint8Array): Promise<Extraction>;
  /**
   * A folder as a zip, streamed; symlinks are never followed out of the workspace.
   * TooLarge (with `limit`/`limit_bytes` and `configure`) before any byte when past the caps.
   */
  zipFolder(root: string, path: string): Promise<FolderZip>;
}
