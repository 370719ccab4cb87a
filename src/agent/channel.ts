/**
 * An async queue that one side pushes into and the other iterates: lets tools and approval
 * waits emit run events from anywhere while the turn's loop is suspended.
 */
export class Channel<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #waiting: ((r: IteratorResult<T>) => void) | null = null;
  #failWaiting: ((err: unknown) => void) | null = null;
  #done = false;
  #error: unknown = undefined;
  #failed = false;

  push(item: T): void {
    if (this.#done) return;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = this.#failWaiting = null;
      resolve({ value: item, done: false });
    } else {
      this.#items.push(item);
    }
  }

  end(): void {
    this.#done = true;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = this.#failWaiting = null;
      resolve({ value: undefined, done: true });
    }
  }

  fail(error: unknown): void {
    this.#done = true;
    this.#failed = true;
    this.#error = error;
    if (this.#failWaiting) {
      const reject = this.#failWaiting;
      this.#waiting = this.#failWaiting = null;
      reject(error);
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.#items.length) return Promise.resolve({ value: this.#items.shift()!, done: false });
        if (this.#failed) return Promise.reject(this.#error);
        if (this.#done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => {
          this.#waiting = resolve;
          this.#failWaiting = reject;
        });
      },
    };
  }
}
