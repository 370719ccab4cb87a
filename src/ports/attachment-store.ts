export interface StoredAttachment {
  filename: string;
  path: string;
  size: number;
  mime: string;
  is_image: boolean;
}

/** Chat uploads, kept per session (`<state>/attachments/<sid>/` on Node). */
export interface AttachmentStore {
  /** Saves under a sanitised, de-duplicated name. */
  save(sessionId: string, filename: string, data: Uint8Array, mime: string): Promise<StoredAttachment>;
  /**
   * A stored upload of this session, for the model: its size, and its bytes when at most
   * `maxBytes`. Null for a path outside the session's uploads (never read) or one that is gone.
   */
  read?(sessionId: string, path: string, maxBytes: number): Promise<AttachmentBytes | null>;
}

export interface AttachmentBytes {
  size: number;
  /** The first bytes (up to 16), always: enough to tell an image by its signature. */
  head: Uint8Array;
  /** Null when the file is larger than the reader asked for. */
  bytes: Uint8Array | null;
}
