import { chmod, mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseAgentConfig, type AgentConfig } from '../../agent/config.js';
import type { AgentConfigSource } from '../../agent/config-source.js';
import { addToCommandAllowlist } from '../../agent/approvals/allowlist-yaml.js';
import { setDefaultModel } from '../../agent/config-edit.js';
import { KeyedMutex } from '../../shared/keyed-mutex.js';
import { readTextIfExists, writeFileAtomic } from '../storage/fs/atomic-file.js';

/**
 * Hermes' configuration files under `$HERMES_HOME`: `config.yaml` and `.env`, read fresh each
 * turn; the process environment (taken once at startup) sits under `.env`. `configPath` puts
 * config.yaml elsewhere (`HERMES_CONFIG_PATH`, the default profile only); `.env` stays in the home.
 */
export class NodeAgentConfigSource implements AgentConfigSource {
  #lock = new KeyedMutex();
  constructor(
    readonly hermesHome: string,
    readonly env: Record<string, string | undefined>,
    private readonly configAt?: string,
  ) {}

  get configPath() {
    return this.configAt ?? join(this.hermesHome, 'config.yaml');
  }

  get paths() {
    return { config: this.configPath, env: join(this.hermesHome, '.env') };
  }

  get processEnv() {
    return this.env;
  }

  async readFiles() {
    const [configYaml, dotenv] = await Promise.all([readTextIfExists(this.configPath), readTextIfExists(this.paths.env)]);
    return { configYaml, dotenv };
  }

  async load(): Promise<AgentConfig> {
    const { configYaml, dotenv } = await this.readFiles();
    return parseAgentConfig({ configYaml, dotenv, env: this.env });
  }

  addToAllowlist(keys: string[]): Promise<void> {
    return this.updateConfigYaml((current) => addToCommandAllowlist(current, keys));
  }

  setDefaultModel(model: string): Promise<void> {
    return this.updateConfigYaml((current) => setDefaultModel(current, model));
  }

  updateConfigYaml(change: (current: string | null) => string): Promise<void> {
    // It may hold model.api_key: a new file is private; an existing one keeps its mode.
    return this.#edit('config', this.configPath, change, async () => ((await stat(this.configPath).catch(() => null))?.mode ?? 0) & 0o777 || 0o600);
  }

  updateDotenv(change: (current: string | null) => string): Promise<void> {
    // Keys live here: private to the user, also when the file already existed more open.
    return this.#edit('env', this.paths.env, change, async () => 0o600);
  }

  async #edit(lock: string, path: string, change: (current: string | null) => string, modeOf: () => Promise<number>): Promise<void> {
    return this.#lock.run(lock, async () => {
      const current = await readTextIfExists(path);
      const next = change(current);
      if (next === current) return;
      await mkdir(dirname(path), { recursive: true });
      const mode = await modeOf();
      await writeFileAtomic(path, next, { mode });
      await chmod(path, mode).catch(() => {});
    });
  }
}
