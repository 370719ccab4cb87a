import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAgentConfig, type AgentConfig } from '../../agent/config.js';
import type { AgentConfigSource } from '../../agent/config-source.js';
import { addToCommandAllowlist } from '../../agent/approvals/allowlist-yaml.js';
import { setDefaultModel } from '../../agent/config-edit.js';
import { KeyedMutex } from '../../shared/keyed-mutex.js';
import { readTextIfExists, writeFileAtomic } from '../storage/fs/atomic-file.js';

/**
 * Hermes' configuration files under `$HERMES_HOME`: `config.yaml` and `.env`, read fresh each
 * turn; the process environment (taken once at startup) sits under `.env`.
 */
export class NodeAgentConfigSource implements AgentConfigSource {
  #lock = new KeyedMutex();
  constructor(
    readonly hermesHome: string,
    readonly env: Record<string, string | undefined>,
  ) {}

  get configPath() {
    return join(this.hermesHome, 'config.yaml');
  }

  async load(): Promise<AgentConfig> {
    const [configYaml, dotenv] = await Promise.all([readTextIfExists(this.configPath), readTextIfExists(join(this.hermesHome, '.env'))]);
    return parseAgentConfig({ configYaml, dotenv, env: this.env });
  }

  addToAllowlist(keys: string[]): Promise<void> {
    return this.#edit((current) => addToCommandAllowlist(current, keys));
  }

  setDefaultModel(model: string): Promise<void> {
    return this.#edit((current) => setDefaultModel(current, model));
  }

  /** One read-change-write of config.yaml at a time, atomically replaced. */
  #edit(change: (current: string | null) => string): Promise<void> {
    return this.#lock.run('config', async () => {
      const current = await readTextIfExists(this.configPath);
      const next = change(current);
      if (next === current) return;
      await mkdir(this.hermesHome, { recursive: true });
      await writeFileAtomic(this.configPath, next);
    });
  }
}
