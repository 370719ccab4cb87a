import { LitElement, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { ref } from 'lit/directives/ref.js';
import { api, type FileEntry } from '../api/client.js';
import { folderDownloadUrl, uploadToWorkspace } from '../api/uploads.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { emit } from '../events.js';
import { treeStyles } from './file-tree-styles.js';
import { NO_MARKS, type GitLetter, type GitMarks } from '../git/git-marks.js';
import { gitLetterStyles } from '../git/git-letter-styles.js';
import { withMarkup } from '../i18n/markup.js';

type Row = { entry: FileEntry; depth: number };
// A badge's title, read when shown (a language switch re-renders it).
const GIT_TITLES: Record<GitLetter, () => string> = {
  M: () => msg('Git: modified'),
  A: () => msg('Git: added'),
  D: () => msg('Git: deleted'),
  R: () => msg('Git: renamed'),
  U: () => msg('Git: conflict'),
  '?': () => msg('Git: untracked'),
};
type Edit = { kind: 'file' | 'dir'; parent: string } | { kind: 'rename'; path: string };

const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/**
 * The open session's workspace as a tree: folders load when first expanded, entries arrive
 * sorted dirs-first from the server. Keyboard: arrows move/expand/collapse, Enter opens,
 * F2 renames, Delete deletes. Files open through `hermes-open-file`.
 *
 * @fires hermes-open-file - a file was chosen
 * @fires renamed - CustomEvent<{from, to}>, after a rename
 * @fires deleted - CustomEvent<{path}>, after a delete
 */
@customElement('hermes-file-tree')
@localized()
export class HermesFileTree extends LitElement {
  @property() sessionId: string | null = null;
  /** The session's workspace path: a switch (same session, another folder) loads the tree afresh. */
  @property() workspace = '';
  /** The file shown in the preview, highlighted here. */
  @property() selected: string | null = null;
  /** Git status letters per file and dots on folders holding changes (from one status answer). */
  @property({ attribute: false }) marks: GitMarks = NO_MARKS;

  @state() private entries = new Map<string, FileEntry[]>();
  @state() private expanded = new Set<string>();
  @state() private loading = new Set<string>();
  @state() private errors = new Map<string, string>();
  @state() private focused = '';
  @state() private edit: Edit | null = null;
  @state() private confirming: string | null = null;
  @state() private actionError = '';
  /** The folder the open file picker uploads into. */
  #uploadDir = '';

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('sessionId') || changed.has('workspace')) {
      this.entries = new Map();
      this.expanded = new Set();
      this.errors = new Map();
      this.edit = this.confirming = null;
      if (this.sessionId) void this.load('');
    }
  }

  /** Loads (or reloads) one folder's entries; '' is the workspace root. */
  async load(dir: string): Promise<void> {
    const sid = this.sessionId;
    if (!sid) return;
    this.loading = new Set(this.loading).add(dir);
    try {
      const r = await api.list(sid, dir);
      if (sid !== this.sessionId) return;
      // Dirs first, whatever order a server sends.
      const sorted = [...r.entries].sort((x, y) => Number(y.is_dir) - Number(x.is_dir) || x.name.localeCompare(y.name, undefined, { sensitivity: 'base' }));
      this.entries = new Map(this.entries).set(dir, sorted);
      this.errors.delete(dir);
    } catch (err) {
      if (sid === this.sessionId) this.errors = new Map(this.errors).set(dir, (err as Error).message);
    } finally {
      this.loading = new Set([...this.loading].filter((d) => d !== dir));
    }
  }

  /** Reloads the root and every open folder (after an action, or on request). */
  async refresh(): Promise<void> {
    await Promise.all(['', ...this.expanded].map((d) => this.load(d)));
  }

  /** Expands the folders above `path` so it can be seen. */
  async reveal(path: string): Promise<void> {
    const parts = path.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (!this.expanded.has(dir)) await this.toggle(dir, true);
    }
  }

  async toggle(dir: string, open = !this.expanded.has(dir)): Promise<void> {
    const next = new Set(this.expanded);
    if (open) next.add(dir);
    else next.delete(dir);
    this.expanded = next;
    if (open && !this.entries.has(dir)) await this.load(dir);
  }

  /** Starts creating a file or folder next to the focused entry. */
  startCreate(kind: 'file' | 'dir'): void {
    const focused = this.#rows().find((r) => r.entry.path === this.focused)?.entry;
    const parent = !focused ? '' : focused.is_dir && this.expanded.has(focused.path) ? focused.path : parentOf(focused.path);
    if (parent) void this.toggle(parent, true);
    this.edit = { kind, parent };
    this.confirming = null;
  }

  /**
   * Opens the file picker; the chosen files go into `dir`, or (none given) the focused folder,
   * else the focused file's folder, else the workspace root. Archives arrive extracted, as the incumbent.
   */
  pickUpload(dir?: string): void {
    const focused = this.#rows().find((r) => r.entry.path === this.focused)?.entry;
    this.#uploadDir = dir ?? (!focused ? '' : focused.is_dir ? focused.path : parentOf(focused.path));
    const input = this.renderRoot.querySelector<HTMLInputElement>('input[data-role="upload-input"]');
    if (!input) return;
    input.value = '';
    input.click();
  }

  async uploadFiles(dir: string, files: File[]): Promise<void> {
    const sid = this.sessionId;
    if (!sid || !files.length) return;
    if (dir) await this.toggle(dir, true);
    const refused: string[] = [];
    await this.#act(async () => {
      for (const file of files) {
        const r = await uploadToWorkspace(sid, dir, file);
        if (r.extract_error) refused.push(`${file.name}: ${r.extract_error}`);
      }
    });
    if (refused.length) this.actionError = refused.join(' · ');
  }

  /** Files dragged from the desktop may land here (only files: text or tree rows are not uploads). */
  #dragOver = (e: DragEvent): void => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  };

  /** Dropped on a folder: into it; on a file: beside it; elsewhere in the tree: the workspace root. */
  #drop(e: DragEvent, dir: string): void {
    const files = [...(e.dataTransfer?.files ?? [])];
    if (!files.length) return;
    e.preventDefault();
    e.stopPropagation();
    void this.uploadFiles(dir, files);
  }

  #rows(dir = '', depth = 0, out: Row[] = []): Row[] {
    for (const entry of this.entries.get(dir) ?? []) {
      out.push({ entry, depth });
      if (entry.is_dir && this.expanded.has(entry.path)) this.#rows(entry.path, depth + 1, out);
    }
    return out;
  }

  #open(entry: FileEntry): void {
    this.focused = entry.path;
    if (entry.is_dir) void this.toggle(entry.path);
    else emit(this, 'hermes-open-file', { path: entry.path });
  }

  async #act(work: () => Promise<unknown>): Promise<boolean> {
    this.actionError = '';
    try {
      await work();
      return true;
    } catch (err) {
      this.actionError = (err as Error).message;
      return false;
    } finally {
      await this.refresh();
    }
  }

  async #commitEdit(input: HTMLInputElement): Promise<void> {
    const edit = this.edit;
    const name = input.value.trim();
    const sid = this.sessionId;
    this.edit = null;
    if (!edit || !name || !sid) return;
    if (edit.kind === 'rename') {
      if (name === edit.path.split('/').pop()) return;
      let to = '';
      if (await this.#act(async () => (to = (await api.renameFile(sid, edit.path, name)).path))) {
        this.focused = to;
        emit(this, 'hermes-file-renamed', { from: edit.path, to }, { local: true });
      }
      return;
    }
    const path = edit.parent ? `${edit.parent}/${name}` : name;
    const ok = await this.#act(() => (edit.kind === 'dir' ? api.createDir(sid, path) : api.createFile(sid, path)));
    if (!ok) return;
    this.focused = path;
    if (edit.kind === 'file') emit(this, 'hermes-open-file', { path });
  }

  async #delete(entry: FileEntry): Promise<void> {
    this.confirming = null;
    const ok = await this.#act(() => api.deleteFile(this.sessionId!, entry.path, entry.is_dir));
    if (ok) emit(this, 'hermes-file-deleted', { path: entry.path }, { local: true });
  }

  #onKeyDown(e: KeyboardEvent): void {
    if ((e.composedPath()[0] as HTMLElement).tagName === 'INPUT') return;
    if (this.confirming) {
      if (e.key === 'Escape') this.#cancelDelete();
      return;
    }
    const rows = this.#rows();
    const at = Math.max(
      0,
      rows.findIndex((r) => r.entry.path === this.focused),
    );
    const row = rows[at];
    if (!row) return;
    const { entry } = row;
    const move = (i: number) => {
      const target = rows[Math.max(0, Math.min(rows.length - 1, i))];
      if (target) this.focused = target.entry.path;
    };
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(at + 1),
      ArrowUp: () => move(at - 1),
      Home: () => move(0),
      End: () => move(rows.length - 1),
      ArrowRight: () => {
        if (entry.is_dir && this.expanded.has(entry.path)) move(at + 1);
        else if (entry.is_dir) void this.toggle(entry.path, true);
      },
      ArrowLeft: () => {
        if (entry.is_dir && this.expanded.has(entry.path)) void this.toggle(entry.path, false);
        else if (parentOf(entry.path)) this.focused = parentOf(entry.path);
      },
      Enter: () => this.#open(entry),
      ' ': () => this.#open(entry),
      F2: () => (this.edit = { kind: 'rename', path: entry.path }),
      Delete: () => (this.confirming = entry.path),
    };
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    action();
    this.#focusRow();
  }

  #focusRow(): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('[role="treeitem"][tabindex="0"]')?.focus());
  }

  #cancelDelete(): void {
    this.confirming = null;
    this.#focusRow();
  }

  #nameInput(value: string) {
    return html`<input
      class="name-input"
      ${ref(this.#grab)}
      aria-label=${this.edit?.kind === 'rename' ? msg('New name') : this.edit?.kind === 'dir' ? msg('Folder name') : msg('File name')}
      .value=${value}
      @keydown=${(e: KeyboardEvent) => {
        e.stopPropagation();
        if (e.key === 'Enter') void this.#commitEdit(e.target as HTMLInputElement);
        else if (e.key === 'Escape') this.edit = null;
      }}
      @blur=${() => (this.edit = null)}
    />`;
  }

  #newRow(parent: string, depth: number) {
    const edit = this.edit;
    if (!edit || edit.kind === 'rename' || edit.parent !== parent) return nothing;
    return html`<li class="row editing" style="--depth:${depth}">
      <span class="twist"></span>${edit.kind === 'dir' ? icons.folder() : icons.file()}${this.#nameInput('')}
    </li>`;
  }

  #row({ entry, depth }: Row, focusable: boolean) {
    const open = this.expanded.has(entry.path);
    const renaming = this.edit?.kind === 'rename' && this.edit.path === entry.path;
    if (this.confirming === entry.path) {
      return html`<li class="row confirm" style="--depth:${depth}" role="treeitem" aria-level=${depth + 1} tabindex="-1">
        <span class="twist"></span><span class="confirm-text">${withMarkup((v) => (entry.is_dir ? msg(str`Delete ${v} and its contents?`) : msg(str`Delete ${v}?`)), html`<b>${entry.name}</b>`)}</span>
        <button class="danger" data-action="confirm-delete" @click=${() => this.#delete(entry)}>${msg('Delete')}</button>
        <button data-action="cancel-delete" ${ref(this.#grab)} @click=${this.#cancelDelete}>${msg('Cancel')}</button>
      </li>`;
    }
    return html`<li
        class="row"
        style="--depth:${depth}"
        role="treeitem"
        aria-level=${depth + 1}
        aria-expanded=${entry.is_dir ? String(open) : nothing}
        aria-selected=${String(entry.path === this.selected)}
        tabindex=${focusable ? 0 : -1}
        data-path=${entry.path}
        data-type=${entry.is_dir ? 'dir' : 'file'}
        title=${entry.path}
        @click=${() => !renaming && this.#open(entry)}
        @dragover=${this.#dragOver}
        @drop=${(e: DragEvent) => this.#drop(e, entry.is_dir ? entry.path : parentOf(entry.path))}
      >
        <span class="twist" ?data-open=${open}>${entry.is_dir ? icons.chevron() : nothing}</span>
        <span class="icon">${entry.is_dir ? icons.folder() : icons.file()}</span>
        ${renaming ? this.#nameInput(entry.name) : html`<span class="name">${entry.name}</span>`}
        ${entry.symlink_loop ? html`<span class="meta" data-role="symlink-loop" title=${msg('Symlink loop: shown, not followed')}>${msg('loop')}</span>` : nothing}
        ${this.loading.has(entry.path) ? html`<span class="meta">${icons.spinner()}</span>` : nothing}
        ${this.#mark(entry)}
        <span class="actions" @click=${(e: Event) => e.stopPropagation()}>
          ${entry.is_dir ? this.#folderActions(entry) : nothing}
          <button class="icon-button" title=${msg('Rename (F2)')} aria-label=${msg(str`Rename ${entry.name}`)} data-action="rename" tabindex="-1" @click=${() => (this.edit = { kind: 'rename', path: entry.path })}>${icons.edit()}</button>
          <button class="icon-button" title=${msg('Delete')} aria-label=${msg(str`Delete ${entry.name}`)} data-action="delete" tabindex="-1" @click=${() => (this.confirming = entry.path)}>${icons.trash()}</button>
        </span>
      </li>
      ${entry.is_dir && open ? this.#newRow(entry.path, depth + 1) : nothing}
      ${entry.is_dir && open && this.errors.has(entry.path) ? html`<li class="row error" style="--depth:${depth + 1}">${this.errors.get(entry.path)}</li>` : nothing}
      ${entry.is_dir && open && this.entries.get(entry.path)?.length === 0 ? html`<li class="row empty meta" style="--depth:${depth + 1}">${msg('Empty folder')}</li>` : nothing}`;
  }

  #folderActions(entry: FileEntry) {
    return html`<button class="icon-button" title=${msg('Upload into folder')} aria-label=${msg(str`Upload into ${entry.name}`)} data-action="upload-here" tabindex="-1" @click=${() => this.pickUpload(entry.path)}>${icons.upload()}</button>
      <a class="icon-button" href=${folderDownloadUrl(this.sessionId!, entry.path)} download="${entry.name}.zip" title=${msg('Download folder')} aria-label=${msg(str`Download ${entry.name} as zip`)} data-action="download-folder" tabindex="-1">${icons.download()}</a>`;
  }

  #mark(entry: FileEntry) {
    const letter = entry.is_dir ? undefined : this.marks.files.get(entry.path);
    if (letter) return html`<span class="git-mark" data-role="git-badge" data-letter=${letter} title=${GIT_TITLES[letter]()}>${letter}</span>`;
    if (entry.is_dir && this.marks.dirs.has(entry.path)) return html`<span class="git-dot" data-role="git-dot" title=${msg('Holds changes')}></span>`;
    return nothing;
  }

  /** A fresh name field (name selected, extension not) or delete question takes the focus. */
  #grab = (el?: Element) =>
    void this.updateComplete.then(() => {
      if (!(el instanceof HTMLElement)) return;
      el.focus();
      const dot = el instanceof HTMLInputElement ? el.value.lastIndexOf('.') : -1;
      if (el instanceof HTMLInputElement) el.setSelectionRange(0, dot > 0 ? dot : el.value.length);
    });

  override render() {
    if (!this.sessionId) return nothing;
    const rows = this.#rows();
    const focusPath = rows.some((r) => r.entry.path === this.focused) ? this.focused : rows[0]?.entry.path;
    const rootError = this.errors.get('');
    return html`
      ${this.actionError ? html`<div class="alert" role="alert">${this.actionError}</div>` : nothing}
      <input type="file" multiple hidden data-role="upload-input" @change=${(e: Event) => {
        const input = e.target as HTMLInputElement;
        void this.uploadFiles(this.#uploadDir, [...(input.files ?? [])]);
      }} />
      <ul role="tree" aria-label=${msg('Workspace files')} @dragover=${this.#dragOver} @drop=${(e: DragEvent) => this.#drop(e, '')} @keydown=${this.#onKeyDown} @focusin=${(
        e: FocusEvent,
      ) => {
        const path = (e.target as HTMLElement).dataset?.path;
        if (path) this.focused = path;
      }}>
        ${this.#newRow('', 0)}
        ${rows.map((r) => this.#row(r, r.entry.path === focusPath))}
        ${rootError ? html`<li class="row error">${rootError}</li>` : nothing}
        ${!rootError && this.entries.get('')?.length === 0 && !this.edit ? html`<li class="row empty meta">${msg('This workspace is empty.')}</li>` : nothing}
        ${!this.entries.has('') && !rootError ? html`<li class="row empty meta">${msg('Loading…')}</li>` : nothing}
      </ul>
    `;
  }

  static override styles = [baseStyles, treeStyles, gitLetterStyles];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-file-tree': HermesFileTree;
  }
}
