import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BadRequest, NotFound } from '../../ports/errors.js';
import { DEFAULT_PROFILE, PROFILE_NAME, type HermesHome, type HermesHomes } from '../../ports/hermes-home.js';
import { NodeAgentConfigSource } from './node-agent-config.js';
import { NodeHermesFiles } from './node-hermes-files.js';

const isDir = async (path: string) => (await stat(path).catch(() => null))?.isDirectory() ?? false;

/**
 * Hermes' profiles on this machine: `default` is `$HERMES_HOME`, the others the folders of
 * `$HERMES_HOME/profiles/` (Hermes' layout). One HermesHome per home, kept, so every write to
 * one config.yaml or .env goes through one lock.
 */
export class NodeHermesHomes implements HermesHomes {
  readonly multiProfile = true;
  readonly defaultHome: HermesHome;
  #homes = new Map<string, HermesHome>();
  #files = new NodeHermesFiles();

  constructor(
    readonly hermesHome: string,
    private readonly env: Record<string, string | undefined>,
  ) {
    this.defaultHome = this.#home(DEFAULT_PROFILE, hermesHome);
  }

  #home(profile: string, root: string): HermesHome {
    let home = this.#homes.get(root);
    if (!home) this.#homes.set(root, (home = { profile, root, config: new NodeAgentConfigSource(root, { ...this.env }), files: this.#files }));
    return home;
  }

  pathOf(profile: string): string {
    const name = profile.trim() || DEFAULT_PROFILE;
    if (name === DEFAULT_PROFILE) return this.hermesHome;
    if (!PROFILE_NAME.test(name)) throw new BadRequest('profile must be 1-64 lowercase letters, digits, - or _, starting with a letter or digit');
    return join(this.hermesHome, 'profiles', name);
  }

  async get(profile: string): Promise<HermesHome> {
    const root = this.pathOf(profile);
    if (root === this.hermesHome) return this.defaultHome;
    if (!(await isDir(root))) throw new NotFound(`Profile '${profile.trim()}' not found`);
    return this.#home(profile.trim(), root);
  }

  async list(): Promise<string[]> {
    const entries = await this.#files.list(join(this.hermesHome, 'profiles'));
    const names = entries.filter((e) => e.kind === 'dir' && PROFILE_NAME.test(e.name) && e.name !== DEFAULT_PROFILE).map((e) => e.name);
    return [DEFAULT_PROFILE, ...names];
  }

  /** The home of `root` when it is one of these profiles (MCP's per-home files use it). */
  homeAt(root: string): HermesHome {
    const known = this.#homes.get(root);
    if (known) return known;
    const prefix = join(this.hermesHome, 'profiles');
    return this.#home(root.startsWith(prefix) ? root.slice(prefix.length + 1) : DEFAULT_PROFILE, root);
  }
}
