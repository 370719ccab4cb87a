import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../storage/fs/atomic-file.js';
import { KeyedMutex } from '../../shared/keyed-mutex.js';
import { SAVED_PROMPTS_FILE, parseSavedPrompts, serializeSavedPrompts, type SavedPromptStore } from '../../ports/saved-prompts.js';

/** Saved prompts in each profile home's `webui/saved_prompts.json`, replaced atomically. */
export class NodeSavedPrompts implements SavedPromptStore {
  readonly #locks = new KeyedMutex();

  async list(home: string) {
    return parseSavedPrompts(await readFile(join(home, SAVED_PROMPTS_FILE), 'utf8').catch(() => null));
  }

  change(home: string, edit: Parameters<SavedPromptStore['change']>[1]) {
    const path = join(home, SAVED_PROMPTS_FILE);
    return this.#locks.run(path, async () => {
      const next = edit(await this.list(home));
      await mkdir(dirname(path), { recursive: true });
      await writeFileAtomic(path, serializeSavedPrompts(next));
      return next;
    });
  }
}
