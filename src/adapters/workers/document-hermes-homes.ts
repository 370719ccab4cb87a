import { NotAvailable, NotFound } from '../../ports/errors.js';
import { DEFAULT_PROFILE, type HermesFiles, type HermesFileStat, type HermesHome, type HermesHomes } from '../../ports/hermes-home.js';
import type { AgentConfigSource } from '../../agent/config-source.js';
import type { TextDocument } from './document-config-source.js';

/**
 * The one profile's files on Workers: MEMORY.md, USER.md and SOUL.md live in D1 (one document
 * each, the memory tool's own names); everything else is absent and cannot be written.
 */
class DocumentHermesFiles implements HermesFiles {
  constructor(
    private readonly root: string,
    private readonly docs: (name: string) => TextDocument,
  ) {}

  #doc(path: string): TextDocument | null {
    const root = this.root.replace(/\/+$/, '');
    if (path === `${root}/SOUL.md`) return this.docs('soul:SOUL.md');
    const name = path.startsWith(`${root}/memories/`) ? path.slice(root.length + 10) : null;
    return name && !name.includes('/') && !name.includes('..') ? this.docs(`memory:${name}`) : null;
  }

  async stat(path: string): Promise<HermesFileStat | null> {
    const text = await this.readText(path);
    // D1 documents keep no modification time: 0 for all, so no write is seen as a conflict.
    return text === null ? null : { kind: 'file', size: new TextEncoder().encode(text).length, mtime: 0, writable: true };
  }

  async readText(path: string): Promise<string | null> {
    const value = await this.#doc(path)?.read();
    return typeof value === 'string' ? value : null;
  }

  async writeText(path: string, text: string): Promise<void> {
    const doc = this.#doc(path);
    if (!doc) throw new NotAvailable('Only the memory files and SOUL.md are kept on this deployment');
    await doc.write(text);
  }

  async list() {
    return [];
  }

  async remove(path: string): Promise<void> {
    const doc = this.#doc(path);
    if (!doc) throw new NotAvailable('Only the memory files and SOUL.md are kept on this deployment');
    await doc.write(null);
  }

  async realPath(path: string): Promise<string> {
    return path;
  }

  /** No folders are kept here (no skills tree). */
  async walk(): Promise<string[]> {
    return [];
  }

  /** Hermes writes no logs here (the agent does not run on this deployment): none to read. */
  async readTail(): Promise<null> {
    return null;
  }
}

const ONE_PROFILE = 'This deployment has one profile, default: profiles cannot be created or deleted here';

/** Workers run one profile, `default`: there is no profiles folder to hold others. */
export class DocumentHermesHomes implements HermesHomes {
  readonly multiProfile = false;
  readonly defaultHome: HermesHome;

  constructor(root: string, config: AgentConfigSource, docs: (name: string) => TextDocument) {
    this.defaultHome = { profile: DEFAULT_PROFILE, root, config, files: new DocumentHermesFiles(root, docs) };
  }

  async get(profile: string): Promise<HermesHome> {
    if ((profile.trim() || DEFAULT_PROFILE) !== DEFAULT_PROFILE)
      throw new NotFound(`Profile '${profile.trim()}' not found: this deployment has one profile, default`);
    return this.defaultHome;
  }

  async list(): Promise<string[]> {
    return [DEFAULT_PROFILE];
  }

  pathOf(profile: string): string {
    if ((profile.trim() || DEFAULT_PROFILE) !== DEFAULT_PROFILE) throw new NotAvailable(ONE_PROFILE);
    return this.defaultHome.root;
  }

  async create(_profile: string): Promise<HermesHome> {
    throw new NotAvailable(ONE_PROFILE);
  }

  async remove(_profile: string): Promise<void> {
    throw new NotAvailable(ONE_PROFILE);
  }
}
