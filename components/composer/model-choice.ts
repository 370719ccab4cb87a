import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { msg, str } from '@lit/localize';
import { api } from '../api/client.js';
import type { ModelCatalogView } from './hermes-model-picker.js';

/**
 * The composer's models: the catalog the picker lists (fetched on connect and again when
 * providers or the profile change — `hermes-models-changed`; refreshed from every provider on
 * request) and the model picked for a chat that does not exist yet.
 */
export class ModelChoice implements ReactiveController {
  catalog: ModelCatalogView | null = null;
  refreshing = false;
  #pending: string | null = null;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly notify: (message: string) => void,
  ) {
    host.addController(this);
  }

  /** Picked in the empty view: the next new session starts with it. */
  get pending(): string | null {
    return this.#pending;
  }

  set pending(model: string | null) {
    this.#pending = model;
    this.host.requestUpdate();
  }

  /** The catalog's model ids (the `/model` completion). */
  get ids(): string[] {
    return this.catalog?.models.map((m) => m.id) ?? [];
  }

  hostConnected(): void {
    this.load();
    window.addEventListener('hermes-models-changed', this.#onChanged);
  }

  hostDisconnected(): void {
    window.removeEventListener('hermes-models-changed', this.#onChanged);
  }

  #onChanged = () => this.load();

  load(): void {
    api.models().then(
      (c) => {
        this.catalog = c;
        this.host.requestUpdate();
      },
      () => {
        this.catalog ??= { default_model: null, models: [] };
        this.host.requestUpdate();
      },
    );
  }

  /** The picker's Refresh: the server asks every provider again. */
  async refresh(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    this.host.requestUpdate();
    try {
      this.catalog = await api.refreshModels();
    } catch (err) {
      this.notify(msg(str`Could not refresh the model list: ${(err as Error).message}`));
    } finally {
      this.refreshing = false;
      this.host.requestUpdate();
    }
  }
}
