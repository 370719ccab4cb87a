import { NotAvailable } from '../../ports/errors.js';
import type { ExecResult, SearchResult, ToolHost } from '../../agent/tools/types.js';
import type { TextDocument } from './document-config-source.js';

/**
 * The tools' machine on Workers: no shell and no files, except the memory tool's own files
 * under `$HERMES_HOME/memories/`, which live in D1 (one document per file).
 */
export class DocumentMemoryHost implements ToolHost {
  readonly homeDir = '/';
  constructor(
    private readonly hermesHome: string,
    private readonly docs: (name: string) => TextDocument,
  ) {}

  #name(path: string): string {
    const prefix = `${this.hermesHome.replace(/\/+$/, '')}/memories/`;
    if (!path.startsWith(prefix) || path.slice(prefix.length).includes('/') || path.includes('..'))
      throw new NotAvailable('Only memory files are kept on this deployment');
    return `memory:${path.slice(prefix.length)}`;
  }

  async readText(path: string): Promise<string | null> {
    const value = await this.docs(this.#name(path)).read();
    return typeof value === 'string' ? value : null;
  }

  async writeText(path: string, content: string): Promise<void> {
    await this.docs(this.#name(path)).write(content);
  }

  async stat(path: string) {
    const text = await this.readText(path).catch(() => null);
    return text === null ? null : { isFile: true, isDir: false, size: new TextEncoder().encode(text).length };
  }

  async exec(): Promise<ExecResult> {
    throw new NotAvailable('There is no shell on this deployment');
  }

  async search(): Promise<SearchResult> {
    throw new NotAvailable('There are no files to search on this deployment');
  }
}
