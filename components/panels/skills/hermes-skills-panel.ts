import { LitElement, html, nothing } from 'lit';
import { STATE_SAVED_EVENT } from '../../state/run-handlers.js';
import { customElement, state } from 'lit/decorators.js';
import { classMap } from 'lit/directives/class-map.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../../i18n/format.js';
import { baseStyles } from '../../shared/styles.js';
import { panelStyles } from '../panel-styles.js';
import { panelState } from '../panel-state.js';
import { skillsApi, type SkillDetail, type SkillRow, type SkillUsage } from '../../api/skills.js';
import '../../chat/hermes-markdown.js';
import { skillsStyles } from './skills-styles.js';
import { composeSkill, skillName } from './skill-text.js';
import { detailView, formView, type SkillViewHost } from './skill-views.js';

const GENERAL = '(general)';
const uses = (u: SkillUsage | undefined) => (u ? u.use_count + u.view_count + u.patch_count : 0);
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
/** The usage count in words; one and many are two messages, so each language words both. */
const usesText = (n: number) => (n === 0 ? '' : n === 1 ? msg('1 use') : msg(str`${formatNumber(n)} uses`));

/**
 * The Skills panel: the profile's skills grouped by category, searchable, each with its enable
 * switch and usage; the open skill's SKILL.md and linked files; create, edit and delete.
 * Selected skill, search and category survive a reload (panel-state).
 */
@customElement('hermes-skills-panel')
@localized()
export class HermesSkillsPanel extends LitElement implements SkillViewHost {
  static override styles = [baseStyles, panelStyles, skillsStyles];

  #state = panelState('skills', { selected: '', search: '', category: '', file: '' });
  @state() skills: SkillRow[] = [];
  @state() categories: string[] = [];
  @state() usage: Record<string, SkillUsage> = {};
  @state() search = this.#state.get().search;
  @state() category = this.#state.get().category;
  @state() detail: SkillDetail | null = null;
  @state() file: { path: string; content: string } | null = null;
  @state() mode: 'read' | 'create' | 'edit' = 'read';
  @state() confirmDelete = false;
  @state() busy = false;
  @state() formError = '';
  @state() error = '';
  @state() loaded = false;

  // The agent's skill_manage changed a skill: list it again, freshly scanned.
  #onStateSaved = (e: Event) => {
    if ((e as CustomEvent<{ kind?: string }>).detail?.kind === 'skill') void this.reload(true);
  };

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener(STATE_SAVED_EVENT, this.#onStateSaved);
    void this.#start();
  }

  override disconnectedCallback(): void {
    window.removeEventListener(STATE_SAVED_EVENT, this.#onStateSaved);
    super.disconnectedCallback();
  }

  async #start() {
    await this.reload();
    const { selected, file } = this.#state.get();
    if (selected && this.skills.some((s) => s.name === selected)) {
      await this.open(selected);
      if (file) this.openFile(file);
    }
  }

  /** The list and usage again (after a write, or to see what the agent changed). */
  async reload(refresh = false) {
    try {
      const [list, usage] = await Promise.all([skillsApi.list(refresh), skillsApi.usage().catch(() => ({}))]);
      this.skills = list.skills;
      this.categories = list.categories;
      this.usage = usage;
      this.error = '';
    } catch (err) {
      this.error = message(err);
    }
    this.loaded = true;
  }

  async open(name: string) {
    this.mode = 'read';
    this.confirmDelete = false;
    this.file = null;
    this.#state.set({ selected: name, file: '' });
    try {
      this.detail = await skillsApi.content(name);
      this.error = '';
    } catch (err) {
      this.detail = null;
      this.error = message(err);
    }
  }

  openFile(path: string) {
    const name = this.detail?.name;
    if (!name) return;
    skillsApi.file(name, path).then(
      (f) => {
        this.file = f;
        this.#state.set({ file: path });
      },
      (err) => (this.error = message(err)),
    );
  }

  closeFile() {
    this.file = null;
    this.#state.set({ file: '' });
  }

  edit() {
    this.mode = 'edit';
    this.formError = '';
  }

  askDelete(on: boolean) {
    this.confirmDelete = on;
  }

  async deleteSkill() {
    const name = this.detail?.name;
    if (!name) return;
    await this.#write(
      async () => {
        await skillsApi.remove(name);
        this.detail = null;
        this.confirmDelete = false;
        this.#state.set({ selected: '', file: '' });
        await this.reload();
      },
      (err) => (this.error = err),
    );
  }

  async submit(form: HTMLFormElement) {
    const data = new FormData(form);
    const field = (k: string) => String(data.get(k) ?? '');
    const editing = this.mode === 'edit' ? this.detail : null;
    const name = editing ? editing.name : skillName(field('name'));
    const content = editing ? field('content') : composeSkill({ name, description: field('description'), body: field('body') });
    await this.#write(
      async () => {
        const saved = await skillsApi.save(name, content, editing ? undefined : field('category').trim());
        await this.reload();
        await this.open(saved.name);
      },
      (err) => (this.formError = err),
    );
  }

  cancelForm() {
    this.mode = 'read';
    this.formError = '';
  }

  async #write(work: () => Promise<void>, onError: (message: string) => void) {
    this.busy = true;
    try {
      await work();
    } catch (err) {
      onError(message(err));
    } finally {
      this.busy = false;
    }
  }

  async #toggle(skill: SkillRow, enabled: boolean) {
    try {
      await skillsApi.toggle(skill.name, enabled);
      this.skills = this.skills.map((s) => (s.name === skill.name ? { ...s, disabled: !enabled, enabled } : s));
      if (this.detail?.name === skill.name) this.detail = { ...this.detail, disabled: !enabled };
    } catch (err) {
      this.error = message(err);
      this.requestUpdate();
    }
  }

  #filtered(): Map<string, SkillRow[]> {
    const q = this.search.trim().toLowerCase();
    const groups = new Map<string, SkillRow[]>();
    for (const s of this.skills) {
      if (this.category && s.category !== this.category) continue;
      if (q && ![s.name, s.description, s.category ?? '', ...s.tags].some((t) => t.toLowerCase().includes(q))) continue;
      const key = s.category ?? GENERAL;
      groups.set(key, [...(groups.get(key) ?? []), s]);
    }
    return new Map([...groups].sort(([a], [b]) => (a === GENERAL ? -1 : b === GENERAL ? 1 : a.localeCompare(b))));
  }

  #row(s: SkillRow) {
    const selected = this.detail?.name === s.name;
    const count = uses(this.usage[s.name]);
    return html`<div
      class=${classMap({ row: true, off: s.disabled })}
      tabindex="0"
      aria-current=${selected ? 'true' : nothing}
      data-role="skill-row"
      data-skill=${s.name}
      @click=${() => this.open(s.name)}
      @keydown=${(e: KeyboardEvent) => (e.key === 'Enter' || e.key === ' ') && e.target === e.currentTarget && ((e.preventDefault(), this.open(s.name)))}
    >
      <input
        type="checkbox"
        role="switch"
        data-role="skill-toggle"
        aria-label=${msg(str`Enable ${s.name}`)}
        .checked=${!s.disabled}
        @click=${(e: Event) => e.stopPropagation()}
        @change=${(e: Event) => this.#toggle(s, (e.target as HTMLInputElement).checked)}
      />
      <span class="name">${s.name}</span>
      <span class="uses" data-role="skill-usage" title=${msg('Uses, views and edits the agent recorded')}>${usesText(count)}</span>
      <span class="desc">${s.description}</span>
    </div>`;
  }

  override render() {
    const groups = this.#filtered();
    return html`<section data-role="panel" data-panel="skills">
      <header class="panel-head">
        <h2>${msg('Skills')}</h2>
        <input
          type="search"
          data-role="skill-search"
          aria-label=${msg('Search skills')}
          placeholder=${msg('Search skills')}
          .value=${this.search}
          @input=${(e: Event) => {
            this.search = (e.target as HTMLInputElement).value;
            this.#state.set({ search: this.search });
          }}
        />
        <select
          data-role="skill-category-filter"
          aria-label=${msg('Category')}
          @change=${(e: Event) => {
            this.category = (e.target as HTMLSelectElement).value;
            this.#state.set({ category: this.category });
          }}
        >
          <option value="" ?selected=${!this.category}>${msg('All categories')}</option>
          ${this.categories.map((c) => html`<option value=${c} ?selected=${c === this.category}>${c}</option>`)}
        </select>
        <button type="button" class="primary" data-role="skill-new" @click=${() => ((this.mode = 'create'), (this.formError = ''))}>${msg('New skill')}</button>
      </header>
      ${this.error ? html`<div class="error" role="alert" data-role="skill-error">${this.error}</div>` : nothing}
      <div class="split">
        <div class="list" role="group" aria-label=${msg('Skills')} data-role="skill-list">
          ${[...groups].map(
            ([
              cat,
              rows,
            ]) => html`<div class="category" data-role="skill-category" data-category=${cat}>${cat === GENERAL ? msg('(general)') : cat} <span class="muted">${formatNumber(rows.length)}</span></div>
              ${rows.map((s) => this.#row(s))}`,
          )}
          ${this.loaded && !groups.size ? html`<p class="empty">${this.skills.length ? msg('No skill matches.') : msg('No skills yet.')}</p>` : nothing}
        </div>
        <div class="detail">${this.mode === 'read' ? detailView(this) : formView(this, this.mode === 'edit' ? this.detail : null)}</div>
      </div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-skills-panel': HermesSkillsPanel;
  }
}
