import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BadRequest, Conflict, NotFound } from '../../ports/errors.js';
import { DEFAULT_PROFILE, PROFILE_DIRS, PROFILE_NAME, RESERVED_PROFILE_NAMES, type HermesHome, type HermesHomes } from '../../ports/hermes-home.js';
import { NodeAgentConfigSource } from './node-agent-config.js';
import { NodeHermesFiles } from './node-hermes-files.js';

const exists = async (path: string) => (await stat(path).catch(() => null)) !== null;
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
    /** `HERMES_CONFIG_PATH`: the default profile's config.yaml when it lives outside `$HERMES_HOME`. */
    private readonly defaultConfigPath?: string,
  ) {
    this.defaultHome = this.#home(DEFAULT_PROFILE, hermesHome);
  }

  #home(profile: string, root: string): HermesHome {
    let home = this.#homes.get(root);
    if (!home) {
      const configAt = root === this.hermesHome ? this.defaultConfigPath : undefined;
      home = { profile, root, config: new NodeAgentConfigSource(root, { ...this.env }, configAt), files: this.#files };
      this.#homes.set(root, home);
    }
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
    const root = join(this.hermesHome, 'profiles');
    const entries = await this.#files.list(root);
    // Hermes marks a deleted profile in profiles/.deleted/<name>; a leftover folder is not listed.
    const deleted = new Set((await this.#files.list(join(root, '.deleted'))).map((e) => e.name));
    const names = entries.filter((e) => e.kind === 'dir' && PROFILE_NAME.test(e.name) && e.name !== DEFAULT_PROFILE && !deleted.has(e.name)).map((e) => e.name);
    return [DEFAULT_PROFILE, ...names];
  }

  async create(profile: string): Promise<HermesHome> {
    const name = profile.trim();
    if (name === DEFAULT_PROFILE) throw new BadRequest("Cannot create a profile named 'default': it is the built-in profile");
    const root = this.pathOf(name);
    if (RESERVED_PROFILE_NAMES.has(name)) throw new BadRequest(`Profile name '${name}' is reserved; pick another`);
    if (await exists(root)) throw new Conflict(`Profile '${name}' already exists`);
    // Built beside its final place and published with one rename, as Hermes does: a gateway
    // scanning profiles/ never sees a half-made one (names starting with '.' are not profiles).
    const staging = join(this.hermesHome, 'profiles', `.${name}.staging-${randomBytes(4).toString('hex')}`);
    try {
      for (const dir of PROFILE_DIRS) await mkdir(join(staging, dir), { recursive: true });
      await rename(staging, root);
    } catch (err) {
      await rm(staging, { recursive: true, force: true });
      // Another create won the race: rename onto a non-empty folder fails.
      if (await exists(root)) throw new Conflict(`Profile '${name}' already exists`);
      throw err;
    }
    await rm(join(this.hermesHome, 'profiles', '.deleted', name), { force: true });
    return this.#home(name, root);
  }

  async remove(profile: string): Promise<void> {
    const name = profile.trim();
    if (!name || name === DEFAULT_PROFILE) throw new BadRequest('The default profile cannot be deleted');
    const root = this.pathOf(name);
    if (!(await isDir(root))) throw new NotFound(`Profile '${name}' not found`);
    await rm(root, { recursive: true, force: true });
    this.#homes.delete(root);
  }

  /** The home of `root` when it is one of these profiles (MCP's per-home files use it). */
  homeAt(root: string): HermesHome {
    const known = this.#homes.get(root);
    if (known) return known;
    const prefix = join(this.hermesHome, 'profiles');
    return this.#home(root.startsWith(prefix) ? root.slice(prefix.length + 1) : DEFAULT_PROFILE, root);
  }
}
