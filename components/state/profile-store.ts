import { profilesApi, type NewProfile, type ProfileRow } from '../api/profiles.js';
import { announceModelsChanged, emit } from '../events.js';
import { Store } from './store.js';

/**
 * This browser's Hermes profiles: the rows, which one is active, and switching. One instance
 * for the page (the chip, the sidebar toggle and the Profiles panel share it). A switch tells the
 * page with `hermes-profile-changed` on window: the sidebar, models and workspaces load again.
 */
export class ProfileStore extends Store {
  rows: ProfileRow[] = [];
  active = 'default';
  /** False on a deployment with one profile (Workers). */
  multiProfile = true;
  loaded = false;
  error: string | null = null;
  #loading: Promise<void> | null = null;

  /** More than `default` exists: the chip and the sidebar toggle show. */
  get several(): boolean {
    return this.rows.length > 1;
  }

  load(): Promise<void> {
    this.#loading ??= (async () => {
      try {
        const r = await profilesApi.list();
        this.rows = r.profiles;
        this.active = r.active;
        this.multiProfile = !r.single_profile_mode;
        this.loaded = true;
        this.error = null;
      } catch (err) {
        this.error = (err as Error).message;
      } finally {
        this.#loading = null;
        this.changed();
      }
    })();
    return this.#loading;
  }

  /** Loads once; later callers share the first answer. */
  ensure(): Promise<void> {
    return this.loaded ? Promise.resolve() : this.load();
  }

  async switchTo(name: string): Promise<void> {
    if (name === this.active) return;
    const r = await profilesApi.switchTo(name);
    this.rows = r.profiles;
    this.active = r.active;
    this.changed();
    emit(window, 'hermes-profile-changed', { name: r.active });
    announceModelsChanged();
  }

  async create(body: NewProfile): Promise<ProfileRow> {
    const row = await profilesApi.create(body);
    await this.load();
    return row;
  }

  async remove(name: string): Promise<void> {
    await profilesApi.remove(name);
    await this.load();
  }
}

export const profileStore = new ProfileStore();
