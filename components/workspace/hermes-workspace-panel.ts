import { LitElement, css, html, nothing, svg } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { consume } from '@lit/context';
import { chatContext, uiContext } from '../state/contexts.js';
import type { ChatStore } from '../state/chat-store.js';
import type { UiStore } from '../state/ui-store.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import './hermes-file-tree.js';
import './hermes-file-preview.js';
import type { HermesFileTree } from './hermes-file-tree.js';
import type { HermesFilePreview } from './hermes-file-preview.js';
import { emit } from '../events.js';
import { formatNumber } from '../i18n/format.js';
import { gitApi, type GitStatus } from '../api/git.js';
import { NO_MARKS, gitMarks, type GitMarks } from '../git/git-marks.js';
import type { HermesGitPanel } from '../git/hermes-git-panel.js';

const glyph = (d: string) =>
  svg`<svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d=${d} /></svg>`;
const newFileIcon = glyph('M13 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V9zM13 3v6h6M12 12v6M9 15h6');
const newFolderIcon = glyph('M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2zM12 10v6M9 13h6');
const under = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

/**
 * The workspace panel: the open session's files as a tree, and a preview/editor for the file
 * chosen there or announced anywhere with `hermes-open-file`.
 *
 * @fires close - the user closed the panel (hermes-app hides it)
 */
@customElement('hermes-workspace-panel')
@localized()
export class HermesWorkspacePanel extends LitElement {
  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  #stores = new StoreController(this, () => [this.chat, this.ui]);

  @state() private openPath: string | null = null;
  /** Files, or the Git view (offered when the workspace is a repository). */
  @state() private view: 'files' | 'git' = 'files';
  @state() private git: GitStatus | null = null;
  @state() private marks: GitMarks = NO_MARKS;
  /** The Git panel's chunk has loaded (it loads the first time the view opens). */
  @state() private gitLoaded = false;
  @query('hermes-file-tree') private tree?: HermesFileTree;
  @query('hermes-file-preview') private preview?: HermesFilePreview;
  @query('hermes-git-panel') private gitPanel?: HermesGitPanel;
  #sessionId: string | null = null;
  #root = '';
  #running = false;
  #gitAsk = 0;

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hermes-open-file', this.#onOpenFile);
    window.addEventListener('hermes-workspace-changed', this.#onWorkspaceChanged);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('hermes-open-file', this.#onOpenFile);
    window.removeEventListener('hermes-workspace-changed', this.#onWorkspaceChanged);
  }

  get #workspace(): string {
    return this.chat?.session?.workspace || this.ui?.settings?.default_workspace || '';
  }

  override willUpdate(): void {
    // Another session means another workspace: what was open there is gone.
    const sid = this.chat?.sessionId ?? null;
    // A workspace switch too: the open file was in the other folder.
    const root = this.#workspace;
    if (sid !== this.#sessionId || root !== this.#root) {
      this.#sessionId = sid;
      this.#root = root;
      this.openPath = null;
      this.view = 'files';
      this.#setGit(null);
      if (sid && this.#filesAvailable) void this.#loadGit(sid);
    }
    // A turn that ended may have changed files: the badges and the Git view read the status again.
    const running = (this.chat?.status ?? 'idle') !== 'idle';
    if (this.#running && !running && sid) void this.#loadGit(sid);
    this.#running = running;
  }

  get #filesAvailable(): boolean {
    return (this.ui?.settings?.features as { files?: boolean } | undefined)?.files !== false;
  }

  /** One status answer feeds the tab, the tree's badges and the Git view. */
  async #loadGit(sid: string): Promise<void> {
    const ask = ++this.#gitAsk;
    let status: GitStatus | null = null;
    try {
      status = await gitApi.status(sid);
    } catch {
      // No git (a Workers deployment, no binary): the Files view is all there is.
    }
    if (ask === this.#gitAsk && sid === this.#sessionId) this.#setGit(status);
  }

  #setGit(status: GitStatus | null): void {
    this.git = status;
    this.marks = gitMarks(status);
    if (!status?.is_git && this.view === 'git') this.view = 'files';
  }

  #showView(view: 'files' | 'git'): void {
    this.view = view;
    if (view === 'git' && !this.gitLoaded) void import('../git/hermes-git-panel.js').then(() => (this.gitLoaded = true));
  }

  #refresh(): void {
    void this.tree?.refresh();
    if (this.#sessionId) void this.#loadGit(this.#sessionId);
  }

  #onOpenFile = (e: Event) => {
    if (!this.chat?.sessionId) return;
    let path = (e as HTMLElementEventMap['hermes-open-file']).detail.path.replace(/^\.\//, '');
    const root = this.#workspace.replace(/\/+$/, '');
    // The transcript may name files by their absolute path.
    if (path.startsWith('/')) {
      if (!root || !path.startsWith(`${root}/`)) {
        this.ui?.notify(msg(str`${path} is outside this workspace`), 'error');
        return;
      }
      path = path.slice(root.length + 1);
    }
    if (path === this.openPath) return;
    if (this.preview?.dirty && !confirm(msg('Discard unsaved changes?'))) return;
    this.openPath = path;
    void this.tree?.reveal(path);
  };

  /** Files changed behind the tree's back (an undone turn): show what is there now. */
  #onWorkspaceChanged = (e: HTMLElementEventMap['hermes-workspace-changed']) => {
    if (e.detail.sessionId === this.chat?.sessionId) this.#refresh();
  };

  #onRenamed(e: CustomEvent<{ from: string; to: string }>): void {
    const open = this.openPath;
    if (open && under(open, e.detail.from)) this.openPath = e.detail.to + open.slice(e.detail.from.length);
  }

  #onDeleted(e: CustomEvent<{ path: string }>): void {
    if (this.openPath && under(this.openPath, e.detail.path)) this.openPath = null;
  }

  #closePreview(): void {
    if (this.preview?.dirty && !confirm(msg('Discard unsaved changes?'))) return;
    this.openPath = null;
  }

  override render() {
    // A deployment without a file system (Cloudflare Workers) says so instead of failing per file.
    const filesAvailable = this.#filesAvailable;
    const sid = filesAvailable ? (this.chat?.sessionId ?? null) : null;
    const root = this.#workspace;
    const name = root.replace(/\/+$/, '').split('/').pop() || root || msg('Workspace');
    return html`
      <header>
        <span class="icon">${icons.folder()}</span>
        <span class="name" title=${root} data-role="workspace-name">${name}</span>
        ${
          sid
            ? html`${
                this.view === 'files'
                  ? html`<button class="icon-button" title=${msg('New file')} aria-label=${msg('New file')} data-action="new-file" @click=${() => this.tree?.startCreate('file')}>${newFileIcon}</button>
              <button class="icon-button" title=${msg('New folder')} aria-label=${msg('New folder')} data-action="new-dir" @click=${() => this.tree?.startCreate('dir')}>${newFolderIcon}</button>
              <button class="icon-button" title=${msg('Upload files')} aria-label=${msg('Upload files')} data-action="upload" @click=${() => this.tree?.pickUpload()}>${icons.upload()}</button>`
                  : nothing
              }
              <button class="icon-button" title=${msg('Refresh')} aria-label=${msg('Refresh files')} data-action="refresh" @click=${() => this.#refresh()}>${icons.retry()}</button>`
            : nothing
        }
        <button class="icon-button close" title=${msg('Close panel')} aria-label=${msg('Close workspace panel')} data-action="close" @click=${() => emit(this, 'hermes-panel-close', null, { local: true })}>${icons.close()}</button>
      </header>
      ${sid && this.git?.is_git ? this.#tabs() : nothing}
      ${
        sid && this.view === 'git'
          ? this.gitLoaded
            ? html`<hermes-git-panel
                .sessionId=${sid}
                .status=${this.git}
                @hermes-git-status=${(e: HTMLElementEventMap['hermes-git-status']) => this.#setGit(e.detail.status)}
              ></hermes-git-panel>`
            : html`<p class="note meta">${icons.spinner()}</p>`
          : nothing
      }
      ${
        sid && this.view === 'files'
          ? html`<div class="body" ?data-file=${!!this.openPath}>
            <hermes-file-tree
              .marks=${this.marks}
              .sessionId=${sid}
              .workspace=${root}
              .selected=${this.openPath}
              @hermes-file-renamed=${this.#onRenamed}
              @hermes-file-deleted=${this.#onDeleted}
            ></hermes-file-tree>
            ${
              this.openPath
                ? html`<hermes-file-preview .sessionId=${sid} .path=${this.openPath} @hermes-preview-close=${this.#closePreview}></hermes-file-preview>`
                : nothing
            }
          </div>`
          : sid
            ? nothing
            : filesAvailable
              ? html`<p class="note meta" data-role="no-session">${msg('Open a conversation to browse its workspace files.')}</p>`
              : html`<p class="note meta" data-role="files-unavailable">${msg('Files are not available on this deployment: it runs on Cloudflare Workers, which has no file system. The agent can still chat, plan with todos, remember and ask you questions.')}</p>`
      }
    `;
  }

  #tabs() {
    const changed = this.git?.totals?.changed ?? 0;
    const tab = (id: 'files' | 'git', label: unknown) =>
      html`<button role="tab" data-view=${id} aria-selected=${String(this.view === id)} @click=${() => this.#showView(id)}>${label}</button>`;
    return html`<div class="tabs" role="tablist" aria-label=${msg('Workspace view')}>
      ${tab('files', msg('Files'))}
      ${tab('git', html`${msg('Git')}${changed ? html` <span class="tab-count" data-role="git-changed">${formatNumber(changed)}</span>` : nothing}`)}
      ${this.view === 'files' ? html`<span class="branch meta mono" title=${msg('Branch')}>${this.git?.branch ?? ''}</span>` : nothing}
    </div>`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: flex;
        flex-direction: column;
        height: 100%;
        min-height: 0;
        color: var(--hermes-fg);
      }
      header {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
        min-height: 44px;
        padding: var(--hermes-space-xs) var(--hermes-space-sm) var(--hermes-space-xs) var(--hermes-space-md);
        padding-top: max(var(--hermes-space-xs), env(safe-area-inset-top));
        border-bottom: var(--hermes-border-width) solid var(--hermes-border);
      }
      .icon {
        display: inline-grid;
        color: var(--hermes-fg-muted);
      }
      .name {
        flex: 1;
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        font-family: var(--hermes-font-mono);
        font-size: var(--hermes-text-label);
      }
      header .icon-button {
        color: var(--hermes-fg-muted);
      }
      header .icon-button:hover {
        color: var(--hermes-fg);
      }
      .body {
        flex: 1;
        min-height: 0;
        display: flex;
        flex-direction: column;
      }
      .tabs {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        padding: var(--hermes-space-xs) var(--hermes-space-sm) 0;
        border-bottom: var(--hermes-border-width) solid var(--hermes-border);
      }
      [role='tab'] {
        border-radius: var(--hermes-radius-sm) var(--hermes-radius-sm) 0 0;
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        border-bottom: 2px solid transparent;
      }
      [role='tab'][aria-selected='true'] {
        color: var(--hermes-fg);
        border-bottom-color: var(--hermes-accent);
      }
      .tab-count {
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-muted);
      }
      .tabs .branch {
        margin-left: auto;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        min-width: 0;
      }
      hermes-git-panel {
        flex: 1;
        min-height: 0;
      }
      hermes-file-tree {
        flex: 1;
        min-height: 0;
        padding-top: var(--hermes-space-xs);
      }
      .body[data-file] hermes-file-tree {
        flex: 0 1 38%;
        min-height: 120px;
        border-bottom: var(--hermes-border-width) solid var(--hermes-border);
      }
      hermes-file-preview {
        flex: 1;
        min-height: 0;
      }
      .note {
        margin: 0;
        padding: var(--hermes-space-lg);
      }
      @media (max-width: 639px) {
        header {
          gap: var(--hermes-space-xs);
        }
        /* A phone has room for one thing: the open file replaces the tree until closed. */
        .body[data-file] hermes-file-tree {
          display: none;
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-workspace-panel': HermesWorkspacePanel;
  }
}
