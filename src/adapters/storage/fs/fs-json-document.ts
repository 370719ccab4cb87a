import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '../../../ports/platform.js';
import { readTextIfExists, writeFileAtomic } from './atomic-file.js';

/** One JSON file read and replaced whole (the model catalog's `models_cache.json`). A damaged file reads as null. */
export class FsJsonDocument {
  constructor(
    readonly path: string,
    readonly logger?: Logger,
  ) {}

  async read(): Promise<unknown> {
    const text = await readTextIfExists(this.path);
    if (!text?.trim()) return null;
    try {
      return JSON.parse(text);
    } catch {
      this.logger?.error({ msg: 'unreadable JSON file ignored', path: this.path });
      return null;
    }
  }

  async write(value: unknown): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await writeFileAtomic(this.path, JSON.stringify(value), { syncDir: false });
  }
}
