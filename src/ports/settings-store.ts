/** The user's settings as one JSON object (`settings.json` on the fs adapter). */
export interface SettingsStore {
  /** What is stored, without defaults applied; `{}` when nothing is. */
  read(): Promise<Record<string, unknown>>;
  /** Replaces the stored object. */
  write(value: Record<string, unknown>): Promise<void>;
}
