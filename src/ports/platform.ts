/** Small services every runtime provides differently. */
export interface Clock {
  /** Seconds since the epoch, as a float (the incumbent's timestamp unit). */
  now(): number;
}

export interface Logger {
  /** One structured line (JSON on Node). */
  info(record: Record<string, unknown>): void;
  error(record: Record<string, unknown>): void;
}

/** Serves the built front end (public/). Null means "not an asset". */
export interface AssetSource {
  /** `acceptEncoding` is the request's Accept-Encoding, for pre-compressed copies. */
  fetch(path: string, acceptEncoding?: string): Promise<Response | null>;
}
