import { KeyedMutex } from '../../../shared/keyed-mutex.js';
import type { SavedPrompt, SavedPromptStore } from '../../../ports/saved-prompts.js';

/** Saved prompts in memory, per home (tests; a deployment without files). */
export class MemorySavedPrompts implements SavedPromptStore {
  readonly #lists = new Map<string, SavedPrompt[]>();
  readonly #locks = new KeyedMutex();

  async list(home: string) {
    return structuredClone(this.#lists.get(home) ?? []);
  }

  change(home: string, edit: (prompts: SavedPrompt[]) => SavedPrompt[]) {
    return this.#locks.run(home, async () => {
      const next = edit(await this.list(home));
      this.#lists.set(home, structuredClone(next));
      return structuredClone(next);
    });
  }
}
