import type { AgentConfig } from './config.js';

/** Where the agent's configuration lives (`$HERMES_HOME/config.yaml` and `.env` on Node). */
export interface AgentConfigSource {
  /** Read fresh for every turn, so an edit applies without a restart. Throws AgentConfigError. */
  load(): Promise<AgentConfig>;
  /** Adds pattern keys to `command_allowlist`, keeping every other key and comment. */
  addToAllowlist(keys: string[]): Promise<void>;
  /** Sets `model.default`, keeping every other key and comment. */
  setDefaultModel(model: string): Promise<void>;
}
