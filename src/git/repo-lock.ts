import { GitError } from './errors.js';

/**
 * One changing git operation per repository at a time. A second one while the first runs is
 * refused at once (the incumbent's `operation_in_progress`) rather than queued: the person
 * sees the panel's state change under them, and a queued commit would commit the wrong index.
 */
export class RepoLocks {
  #busy = new Set<string>();

  async run<T>(root: string, work: () => Promise<T>): Promise<T> {
    if (this.#busy.has(root)) throw new GitError('Another Git operation is still running', 'operation_in_progress', 409);
    this.#busy.add(root);
    try {
      return await work();
    } finally {
      this.#busy.delete(root);
    }
  }
}
