import { parseAgentConfig, type AgentConfig } from '../../agent/config.js';
import type { AgentConfigSource } from '../../agent/config-source.js';
import { addToCommandAllowlist } from '../../agent/approvals/allowlist-yaml.js';
import { setDefaultModel } from '../../agent/config-edit.js';
import { BadRequest } from '../../ports/errors.js';
import { KeyedMutex } from '../../shared/keyed-mutex.js';

/** One stored text (a row in D1's documents table). */
export interface TextDocument {
  read(): Promise<unknown>;
  write(value: unknown): Promise<void>;
}

/**
 * The agent's configuration on Workers: the deployment's variables and secrets
 * (HERMES_WEBUI_DEFAULT_MODEL, HERMES_WEBUI_PROVIDER, HERMES_WEBUI_BASE_URL,
 * HERMES_WEBUI_API_KEY, OPENROUTER_API_KEY, …), under an optional config.yaml kept in D1 so the
 * wizard and the model picker can still change it. Secrets cannot be written from here: they
 * are set with `wrangler secret put`.
 */
export class DocumentAgentConfigSource implements AgentConfigSource {
  #lock = new KeyedMutex();
  constructor(
    private readonly doc: TextDocument,
    readonly processEnv: Record<string, string | undefined>,
  ) {}

  readonly paths = { config: 'config.yaml (stored in D1)', env: 'Workers variables and secrets (wrangler secret put)' };

  async readFiles() {
    const value = await this.doc.read();
    return { configYaml: typeof value === 'string' ? value : null, dotenv: null };
  }

  async load(): Promise<AgentConfig> {
    const { configYaml } = await this.readFiles();
    return parseAgentConfig({ configYaml, dotenv: null, env: this.processEnv });
  }

  addToAllowlist(keys: string[]): Promise<void> {
    return this.updateConfigYaml((text) => addToCommandAllowlist(text, keys));
  }

  setDefaultModel(model: string): Promise<void> {
    return this.updateConfigYaml((text) => setDefaultModel(text, model));
  }

  updateConfigYaml(change: (text: string | null) => string): Promise<void> {
    return this.#lock.run('config', async () => {
      const { configYaml } = await this.readFiles();
      const next = change(configYaml);
      if (next !== configYaml) await this.doc.write(next);
    });
  }

  async updateDotenv(): Promise<void> {
    throw new BadRequest(
      'Keys are secrets of the Worker here: set them with `wrangler secret put OPENROUTER_API_KEY` (or HERMES_WEBUI_API_KEY) and deploy again',
    );
  }
}
