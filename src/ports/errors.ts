/**
 * Typed errors that ports and routes throw. The app's error handler turns each into
 * `{"error": message}` with its status, so adapters never build HTTP responses themselves.
 */
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 501 | 502 | 503,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends AppError {
  constructor(message: string, extra?: Record<string, unknown>) {
    super(400, message, extra);
  }
}

/** The client went away before its request body arrived whole: its fault, and nothing to log as an error. */
export class BodyAborted extends BadRequest {
  constructor() {
    super('The request body did not arrive whole');
  }
}

export class Unauthorized extends AppError {
  constructor(message: string) {
    super(401, message);
  }
}

/** Too many attempts; `retry_after` (seconds) rides along in the body. */
export class TooManyRequests extends AppError {
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super(429, message, { retry_after: retryAfter });
  }
}

export class Forbidden extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}

export class NotFound extends AppError {
  constructor(message: string) {
    super(404, message);
  }
}

export class Conflict extends AppError {
  constructor(message: string, extra?: Record<string, unknown>) {
    super(409, message, extra);
  }
}

export class TooLarge extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}

/** An update carried a version (the session's `updated_at`) that is no longer current. */
export class VersionConflict extends Conflict {
  constructor(readonly current: number) {
    super('Session was changed by someone else; reload and try again', { current_updated_at: current });
  }
}

/** This deployment cannot do it at all (files and uploads on Workers); `unavailable: true` tells the UI. */
export class NotAvailable extends AppError {
  constructor(message: string) {
    super(501, message, { unavailable: true });
  }
}
