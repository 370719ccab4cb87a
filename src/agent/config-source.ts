import type { AgentConfig } from './config.js';

/** Where the agent's configuration lives (`$HERMES_HOME/config.yaml` and `.env` on Node). */
export interface AgentConfigSource {
  /** Read fresh for every turn, so an edit applies without a restart. Throws AgentConfigError. */
  load(): Promise<AgentConfig>;
  /** Adds pattern keys to `command_allowlist`, keeping every other key and comment. */
  addToAllowlist(keys: string[]): Promise<void>;
  /** Sets `model.default`, keeping every other key and comment. */
  setDefaultModel(model: string): Promise<void>;
  /** Where the files are, as a person would look for them. */
  readonly paths: { config: string; env: string };
  /** The files' text; null for a missing file. */
  readFiles(): Promise<{ configYaml: string | null; dotenv: string | null }>;
  /** One read-change-write of config.yaml at a time, replaced atomically; unchanged text is not written. */
  updateConfigYaml(change: (text: string | null) => string): Promise<void>;
  /** The same for `.env`, which is created private to the user (0600). */
  updateDotenv(change: (text: string | null) => string): Promise<void>;
  /** Variables the process itself was started with (they count as set keys, but cannot be removed here). */
  readonly processEnv: Record<string, string | undefined>;
}
