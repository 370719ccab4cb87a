import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** A small observable: state lives in fields, `changed()` tells subscribers to re-read it. */
export class Store extends EventTarget {
  #frame = 0;

  /** Notifies subscribers now. */
  protected changed(): void {
    this.dispatchEvent(new Event('change'));
  }

  /** Notifies at most once per animation frame: for streaming, where events outpace paint. */
  protected changedNextFrame(): void {
    if (this.#frame) return;
    const run = () => {
      this.#frame = 0;
      this.changed();
    };
    this.#frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(run) : (setTimeout(run, 16) as unknown as number);
  }
}

/**
 * Re-renders its host whenever one of the given stores changes.
 *
 * @example
 * private sessions = new StoreController(this, () => [this.sessionsStore]);
 */
export class StoreController implements ReactiveController {
  #subscribed: Store[] = [];
  #onChange = () => this.host.requestUpdate();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly stores: () => Array<Store | undefined>,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.resubscribe();
  }

  hostUpdate(): void {
    // Context values can arrive after connection; follow whatever the getter returns now.
    const current = this.stores().filter((s): s is Store => !!s);
    if (current.length !== this.#subscribed.length || current.some((s, i) => s !== this.#subscribed[i])) this.resubscribe();
  }

  hostDisconnected(): void {
    for (const s of this.#subscribed) s.removeEventListener('change', this.#onChange);
    this.#subscribed = [];
  }

  resubscribe(): void {
    this.hostDisconnected();
    this.#subscribed = this.stores().filter((s): s is Store => !!s);
    for (const s of this.#subscribed) s.addEventListener('change', this.#onChange);
  }
}
