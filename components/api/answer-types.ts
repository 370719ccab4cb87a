// Answers of the sign-in status and the pending-interaction endpoints, as the app reads them.

/** GET /api/auth/status (the fields the app reads; the server sends a few more). */
export interface AuthStatus {
  auth_enabled: boolean;
  logged_in: boolean;
  password_auth_enabled: boolean;
  /** The password comes from HERMES_WEBUI_PASSWORD and cannot be changed from the app. */
  password_env_var: boolean;
  session_ttl: number;
  /** Only when signed in. */
  csrf_token?: string;
  [key: string]: unknown;
}

export interface PendingApproval {
  approval_id: string;
  command: string;
  description: string;
  pattern_keys: string[];
  choices: string[];
  /** A file edit's preview (write_file, patch): the unified diff it would make and the path it writes. */
  diff?: string;
  path?: string;
}

export interface PendingClarify {
  clarify_id: string;
  question: string;
  choices_offered: string[];
}
