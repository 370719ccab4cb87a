import { LitElement, css, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { consume } from '@lit/context';
import { sessionsContext, uiContext } from '../state/contexts.js';
import type { SessionsStore } from '../state/sessions-store.js';
import type { UiStore } from '../state/ui-store.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { safeColor } from './hermes-session-row.js';
import { createProject } from './session-actions.js';
import { newChatInProject } from './project-actions.js';
import type { Project } from '../api/client.js';

/** How many colours the palette offers (the --hermes-project-color-N tokens below). */
const PALETTE_SIZE = 6;

/** A computed CSS colour as #rrggbb (what the API stores), via the canvas's own normaliser. */
export function toHex(color: string): string | null {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return null;
  ctx.fillStyle = color;
  return /^#[0-9a-f]{6}$/i.test(ctx.fillStyle) ? ctx.fillStyle : null;
}

/**
 * Project filter chips ("All" plus one per project) and the form that creates a project with
 * a name and a colour from a small token palette.
 */
@customElement('hermes-project-chips')
@localized()
export class HermesProjectChips extends LitElement {
  @consume({ context: sessionsContext, subscribe: true }) sessions?: SessionsStore;
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  #stores = new StoreController(this, () => [this.sessions]);

  @state() private creating = false;
  @state() private colorIndex = 0;
  @state() private busy = false;
  @state() private menu: { project: Project; anchor: { x: number; y: number } } | null = null;
  /** The project whose settings dialog is open. */
  @state() private settingsFor: Project | null = null;

  #filter(id: string | null) {
    const s = this.sessions;
    if (!s) return;
    s.setProjectFilter(s.projectFilter === id ? null : id);
    // "All" is the whole list: it leaves the Tasks filter too.
    if (id === null) void s.setTasksOnly(false);
  }

  /** Task runs (source cron) are a list of their own; the chip shows while there are any. */
  #tasksChip(s: SessionsStore) {
    if (!s.tasksOnly && !s.cronCount) return nothing;
    return html`<button
      class="chip"
      data-role="sidebar-tasks-filter"
      aria-pressed=${s.tasksOnly}
      title=${msg('Scheduled task runs')}
      @click=${() => void s.setTasksOnly(!s.tasksOnly)}
    >
      <span class="name">${msg('Tasks')}</span>${s.cronCount ? html`<span class="meta">\u00a0${formatNumber(s.cronCount)}</span>` : nothing}
    </button>`;
  }

  async #openForm(open: boolean) {
    this.creating = open;
    await this.updateComplete;
    if (open) this.renderRoot.querySelector<HTMLInputElement>('input[name="name"]')?.focus();
    else this.renderRoot.querySelector<HTMLElement>('[data-role="new-project"]')?.focus();
  }

  async #submit(e: SubmitEvent) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const name = (new FormData(form).get('name') as string | null)?.trim();
    if (!name || !this.sessions || this.busy) return;
    const swatch = this.renderRoot.querySelectorAll<HTMLElement>('.swatch .fill')[this.colorIndex];
    const color = swatch ? toHex(getComputedStyle(swatch).backgroundColor) : null;
    this.busy = true;
    const ok = await createProject({ sessions: this.sessions, ui: this.ui, host: this }, name, color);
    this.busy = false;
    if (ok) {
      form.reset();
      void this.#openForm(false);
    }
  }

  /** Right-click, the context-menu key or the active chip's ⋯ open the chip's menu. */
  #openMenu(e: Event, project: Project) {
    e.preventDefault();
    const box = (e.currentTarget as HTMLElement).getBoundingClientRect();
    const anchor = e instanceof MouseEvent && e.type === 'contextmenu' && e.clientX ? { x: e.clientX, y: e.clientY } : { x: box.left, y: box.bottom };
    // The menu is out of the first paint: its chunk comes on the first open.
    void import('./hermes-project-menu.js').then(() => (this.menu = { project, anchor }));
  }

  #closeMenu(restoreFocus: boolean) {
    const id = this.menu?.project.project_id;
    this.menu = null;
    if (restoreFocus && id) this.renderRoot.querySelector<HTMLElement>(`[data-role="project-chip"][data-project-id="${CSS.escape(id)}"]`)?.focus();
  }

  async #openSettings(project: Project) {
    this.menu = null;
    await import('./hermes-project-settings.js');
    this.settingsFor = project;
  }

  #settingsDone(saved: Project | null) {
    const id = this.settingsFor?.project_id;
    this.settingsFor = null;
    if (saved) this.sessions?.replaceProject(saved);
    if (id) this.renderRoot.querySelector<HTMLElement>(`[data-role="project-chip"][data-project-id="${CSS.escape(id)}"]`)?.focus();
  }

  #newChat(project: Project) {
    if (this.sessions) void newChatInProject({ sessions: this.sessions, ui: this.ui, host: this }, project);
  }

  /** The active chip's own buttons: a new chat in the project, and its menu. */
  #activeTools(p: Project) {
    return html`<button class="chip tool" data-role="project-new-chat" aria-label=${msg(str`New chat in ${p.name}`)} title=${msg(str`New chat in ${p.name}`)} @click=${() => this.#newChat(p)}>${icons.plus()}</button>
      <button class="chip tool" data-role="project-menu-button" aria-haspopup="menu" aria-label=${msg(str`Options for ${p.name}`)} title=${msg('Options')} @click=${(e: Event) => this.#openMenu(e, p)}>${icons.more()}</button>`;
  }

  #swatchKey(e: KeyboardEvent) {
    const step = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    if (!step) return;
    e.preventDefault();
    this.colorIndex = (this.colorIndex + step + PALETTE_SIZE) % PALETTE_SIZE;
    void this.updateComplete.then(() => this.renderRoot.querySelectorAll<HTMLElement>('.swatch')[this.colorIndex]?.focus());
  }

  #form() {
    return html`
      <form class="create" data-role="project-form" @submit=${this.#submit} @keydown=${(e: KeyboardEvent) => e.key === 'Escape' && ((e.stopPropagation(), void this.#openForm(false)))}>
        <input name="name" placeholder=${msg('Project name')} aria-label=${msg('Project name')} maxlength="128" required autocomplete="off" />
        <div class="swatches" role="radiogroup" aria-label=${msg('Colour')} @keydown=${this.#swatchKey}>
          ${Array.from(
            { length: PALETTE_SIZE },
            (_, i) => html`
            <button
              type="button"
              class="swatch"
              role="radio"
              data-index=${i}
              style="--swatch: var(--hermes-project-color-${i + 1})"
              aria-checked=${i === this.colorIndex}
              aria-label=${msg(str`Colour ${formatNumber(i + 1)}`)}
              tabindex=${i === this.colorIndex ? 0 : -1}
              @click=${() => (this.colorIndex = i)}
            >
              <span class="fill"></span>
            </button>
          `,
          )}
        </div>
        <div class="actions">
          <button type="button" @click=${() => void this.#openForm(false)}>${msg('Cancel')}</button>
          <button type="submit" class="primary" data-role="create-project" ?disabled=${this.busy}>${msg('Create')}</button>
        </div>
      </form>
    `;
  }

  override render() {
    const s = this.sessions;
    if (!s) return nothing;
    const filter = s.projectFilter;
    return html`
      <div class="chips" role="toolbar" aria-label=${msg('Filter by project')}>
        <button class="chip" data-role="project-chip" data-project-id="" aria-pressed=${filter === null && !s.tasksOnly} @click=${() => this.#filter(null)}>${msg('All')}</button>
        ${this.#tasksChip(s)}
        ${s.projects.map((p) => {
          const color = safeColor(p.color);
          return html`<button
              class="chip"
              data-role="project-chip"
              data-project-id=${p.project_id}
              aria-pressed=${filter === p.project_id}
              title=${p.name}
              @click=${() => this.#filter(p.project_id)}
              @contextmenu=${(e: MouseEvent) => this.#openMenu(e, p)}
              @keydown=${(e: KeyboardEvent) => (e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')) && this.#openMenu(e, p)}
            >
              <span class="dot" style=${color ? `--chip-color: ${color}` : ''}></span><span class="name">${p.name}</span>
            </button>${filter === p.project_id ? this.#activeTools(p) : nothing}`;
        })}
        ${
          this.creating
            ? nothing
            : html`<button class="chip add" data-role="new-project" aria-label=${msg('New project')} title=${msg('New project')} @click=${() => void this.#openForm(true)}>${icons.plus()}</button>`
        }
      </div>
      ${this.creating ? this.#form() : nothing}
      ${
        this.menu
          ? html`<hermes-project-menu
            .project=${this.menu.project}
            .anchor=${this.menu.anchor}
            .onPick=${() => void this.#openSettings(this.menu!.project)}
            .onClose=${(restore: boolean) => this.#closeMenu(restore)}
          ></hermes-project-menu>`
          : nothing
      }
      ${this.settingsFor ? html`<hermes-project-settings .project=${this.settingsFor} .onDone=${(saved: Project | null) => this.#settingsDone(saved)}></hermes-project-settings>` : nothing}
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
        /* The palette new projects choose from; the chosen colour is stored as a hex. */
        --hermes-project-color-1: var(--hermes-color-secondary);
        --hermes-project-color-2: var(--hermes-color-info);
        --hermes-project-color-3: var(--hermes-color-success);
        --hermes-project-color-4: var(--hermes-color-warning);
        --hermes-project-color-5: var(--hermes-color-error);
        --hermes-project-color-6: var(--hermes-color-primary);
      }
      .chips {
        display: flex;
        flex-wrap: wrap;
        gap: var(--hermes-space-xs);
        max-height: 84px;
        overflow-y: auto;
      }
      .chip {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        max-width: 100%;
        min-height: 24px;
        padding: 0 var(--hermes-space-sm);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-pill);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
      }
      .chip[aria-pressed='true'] {
        background: var(--hermes-selected);
        border-color: var(--hermes-accent);
        color: var(--hermes-fg);
      }
      .chip.tool {
        padding: 0 var(--hermes-space-xs);
        min-width: 24px;
        justify-content: center;
      }
      .chip.add {
        padding: 0 var(--hermes-space-xs);
        border-style: dashed;
      }
      .name {
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .dot {
        flex: none;
        width: 8px;
        height: 8px;
        border-radius: var(--hermes-radius-pill);
        background: var(--chip-color, transparent);
        border: var(--hermes-border-width) solid var(--chip-color, var(--hermes-fg-faint));
      }
      .create {
        display: grid;
        gap: var(--hermes-space-sm);
        margin-top: var(--hermes-space-sm);
        padding: var(--hermes-space-sm);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        background: var(--hermes-panel-subtle);
      }
      .create input {
        width: 100%;
      }
      .swatches {
        display: grid;
        grid-template-columns: repeat(6, minmax(0, 1fr));
      }
      /* The button is the hit area; the circle inside is the colour. */
      .swatch {
        display: grid;
        place-items: center;
        height: 28px;
        padding: 0;
      }
      .swatch:hover:not(:disabled) {
        background: none;
      }
      .swatch:hover .fill {
        box-shadow: 0 0 0 2px var(--hermes-panel-subtle), 0 0 0 3px var(--hermes-fg-faint);
      }
      .fill {
        width: 18px;
        height: 18px;
        border-radius: var(--hermes-radius-pill);
        background: var(--swatch);
      }
      .swatch[aria-checked='true'] .fill {
        box-shadow: 0 0 0 2px var(--hermes-panel-subtle), 0 0 0 4px var(--hermes-fg);
      }
      .actions {
        display: flex;
        justify-content: flex-end;
        gap: var(--hermes-space-xs);
      }
      @media (max-width: 639px) {
        .chips {
          flex-wrap: nowrap;
          overflow-x: auto;
          max-height: none;
        }
        .chip {
          flex: none;
          min-height: var(--hermes-touch-target);
          max-width: 60%;
        }
        .swatch {
          height: var(--hermes-touch-target);
        }
        .create input,
        .actions button {
          min-height: var(--hermes-touch-target);
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-project-chips': HermesProjectChips;
  }
}
