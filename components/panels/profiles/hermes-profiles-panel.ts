import { LitElement, css, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../../i18n/format.js';
import type { ProfileRow } from '../../api/profiles.js';
import { profileStore } from '../../state/profile-store.js';
import { StoreController } from '../../state/store.js';
import { baseStyles } from '../../shared/styles.js';
import { panelStyles } from '../panel-styles.js';
import { panelState } from '../panel-state.js';
import type { CreateMode } from './hermes-profile-create.js';
import './hermes-profile-create.js';

/** A file name, the same in every language. */
const ENV_FILE = '.env';
const saved = panelState('profiles', { mode: 'blank' as CreateMode });

/**
 * The Profiles panel: Hermes' profiles (`$HERMES_HOME` and `profiles/<name>/`) with their model
 * and skills, which one this browser uses, switching, creating and deleting. The server's
 * refusals (default, or this browser's active profile) are shown as it words them.
 */
@customElement('hermes-profiles-panel')
@localized()
export class HermesProfilesPanel extends LitElement {
  static override styles = [
    baseStyles,
    panelStyles,
    css`
      .rows {
        display: grid;
        gap: var(--hermes-space-xs);
        margin: 0 0 var(--hermes-space-lg);
        padding: 0;
        list-style: none;
      }
      .row {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-md);
        padding: var(--hermes-space-sm) var(--hermes-space-md);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
      }
      .row[data-active] {
        border-color: var(--hermes-accent);
        background: var(--hermes-selected);
      }
      /* On the selected tint only the full text colour keeps 4.5:1. */
      .row[data-active] :is(.tag, .facts) {
        color: var(--hermes-fg);
      }
      .who {
        flex: 1;
        min-width: 0;
        display: grid;
        gap: 2px;
      }
      .name {
        font-weight: 600;
      }
      .tag {
        margin-left: var(--hermes-space-sm);
        font-size: var(--hermes-text-meta);
        font-weight: 400;
        color: var(--hermes-accent);
      }
      .facts {
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-muted);
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .acts {
        display: flex;
        gap: var(--hermes-space-xs);
        flex: none;
      }
      .error {
        margin: 0 0 var(--hermes-space-md);
        padding: var(--hermes-space-sm) var(--hermes-space-md);
        border-radius: var(--hermes-radius-md);
        background: var(--hermes-error-bg);
      }
      h3 {
        margin: 0 0 var(--hermes-space-sm);
        font-size: var(--hermes-text-body);
        font-weight: 600;
      }
      @media (max-width: 639px) {
        .row {
          flex-wrap: wrap;
        }
        .acts button {
          min-height: var(--hermes-touch-target);
        }
      }
    `,
  ];

  #store = new StoreController(this, () => [profileStore]);
  @state() private confirming: string | null = null;
  @state() private error = '';
  @state() private mode: CreateMode = saved.get().mode;

  override connectedCallback(): void {
    super.connectedCallback();
    void profileStore.load();
  }

  async #run(action: () => Promise<void>): Promise<void> {
    this.error = '';
    try {
      await action();
    } catch (err) {
      this.error = (err as Error).message;
    }
  }

  #row(p: ProfileRow, active: string) {
    const isActive = p.name === active;
    // One and many skills are two messages, so each language words both.
    const skills = p.skill_count === 1 ? msg('1 skill') : msg(str`${formatNumber(p.skill_count)} skills`);
    const facts = [p.model ?? msg('no model set'), skills, p.has_env ? ENV_FILE : msg('no .env')];
    return html`<li class="row" data-role="profile-row" data-profile=${p.name} ?data-active=${isActive} aria-current=${isActive || nothing}>
      <div class="who">
        <span class="name">${p.name}${isActive ? html`<span class="tag">${msg('active')}</span>` : nothing}${p.is_default ? html`<span class="tag muted">${msg('built-in')}</span>` : nothing}</span>
        <span class="facts" title=${p.path}>${facts.join(' · ')}</span>
      </div>
      <div class="acts">
        ${isActive ? nothing : html`<button class="outline" data-role="profile-switch" @click=${() => void this.#run(() => profileStore.switchTo(p.name))}>${msg('Use')}</button>`}
        ${
          p.is_default
            ? nothing
            : this.confirming === p.name
              ? html`<button class="danger" data-role="profile-delete-confirm" @click=${() => void this.#delete(p.name)}>${msg(str`Delete ${p.name} and its files`)}</button>
                <button data-role="profile-delete-cancel" @click=${() => (this.confirming = null)}>${msg('Keep')}</button>`
              : html`<button data-role="profile-delete" title=${msg("Delete this profile's folder")} @click=${() => (this.confirming = p.name)}>${msg('Delete')}</button>`
        }
      </div>
    </li>`;
  }

  async #delete(name: string): Promise<void> {
    this.confirming = null;
    await this.#run(() => profileStore.remove(name));
  }

  override render() {
    const s = profileStore;
    return html`<section data-role="panel" data-panel="profiles">
      <header class="panel-head"><h2>${msg('Profiles')}</h2></header>
      <div class="panel-body">
        ${
          !s.loaded
            ? html`<p class="empty">${s.error ?? msg('Loading…')}</p>`
            : !s.multiProfile
              ? html`<p class="empty" data-role="single-profile">${msg('This deployment has one profile, default: profiles cannot be created or switched here.')}</p>`
              : html`${this.error ? html`<p class="error" role="alert" data-role="profile-error">${this.error}</p>` : nothing}
                <ul class="rows">${s.rows.map((p) => this.#row(p, s.active))}</ul>
                <h3>${msg('New profile')}</h3>
                <hermes-profile-create
                  .profiles=${s.rows.map((p) => p.name)}
                  .mode=${this.mode}
                  @mode-change=${(e: CustomEvent<CreateMode>) => ((this.mode = e.detail), saved.set({ mode: e.detail }))}
                ></hermes-profile-create>`
        }
      </div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-profiles-panel': HermesProfilesPanel;
  }
}
