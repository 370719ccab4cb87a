import { LitElement, css, html, nothing, svg } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
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
export class HermesWorkspacePanel extends LitElement {
  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  #stores = new StoreController(this, () => [this.chat, this.ui]);

  @state() private openPath: string | null = null;
  @query('hermes-file-tree') private tree?: HermesFileTree;
  @query('hermes-file-preview') private preview?: HermesFilePreview;
  #sessionId: string | null = null;
  #root = '';

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('hermes-open-file', this.#onOpenFile);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('hermes-open-file', this.#onOpenFile);
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
    }
  }

  #onOpenFile = (e: Event) => {
    if (!this.chat?.sessionId) return;
    let path = (e as HTMLElementEventMap['hermes-open-file']).detail.path.replace(/^\.\//, '');
    const root = this.#workspace.replace(/\/+$/, '');
    // The transcript may name files by their absolute path.
    if (path.startsWith('/')) {
      if (!root || !path.startsWith(`${root}/`)) {
        this.ui?.notify(`${path} is outside this workspace`, 'error');
        return;
      }
      path = path.slice(root.length + 1);
    }
    if (path === this.openPath) return;
    if (this.preview?.dirty && !confirm('Discard unsaved changes?')) return;
    this.openPath = path;
    void this.tree?.reveal(path);
  };

  #onRenamed(e: CustomEvent<{ from: string; to: string }>): void {
    const open = this.openPath;
    if (open && under(open, e.detail.from)) this.openPath = e.detail.to + open.slice(e.detail.from.length);
  }

  #onDeleted(e: CustomEvent<{ path: string }>): void {
    if (this.openPath && under(this.openPath, e.detail.path)) this.openPath = null;
  }

  #closePreview(): void {
    if (this.preview?.dirty && !confirm('Discard unsaved changes?')) return;
    this.openPath = null;
  }

  override render() {
    // A deployment without a file system (Cloudflare Workers) says so instead of failing per file.
    const filesAvailable = (this.ui?.settings?.features as { files?: boolean } | undefined)?.files !== false;
    const sid = filesAvailable ? (this.chat?.sessionId ?? null) : null;
    const root = this.#workspace;
    const name = root.replace(/\/+$/, '').split('/').pop() || root || 'Workspace';
    return html`
      <header>
        <span class="icon">${icons.folder()}</span>
        <span class="name" title=${root} data-role="workspace-name">${name}</span>
        ${
          sid
            ? html`<button class="icon-button" title="New file" aria-label="New file" data-action="new-file" @click=${() => this.tree?.startCreate('file')}>${newFileIcon}</button>
              <button class="icon-button" title="New folder" aria-label="New folder" data-action="new-dir" @click=${() => this.tree?.startCreate('dir')}>${newFolderIcon}</button>
              <button class="icon-button" title="Refresh" aria-label="Refresh files" data-action="refresh" @click=${() => this.tree?.refresh()}>${icons.retry()}</button>`
            : nothing
        }
        <button class="icon-button close" title="Close panel" aria-label="Close workspace panel" data-action="close" @click=${() => emit(this, 'hermes-panel-close', null, { local: true })}>${icons.close()}</button>
      </header>
      ${
        sid
          ? html`<div class="body" ?data-file=${!!this.openPath}>
            <hermes-file-tree
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
          : filesAvailable
            ? html`<p class="note meta" data-role="no-session">Open a conversation to browse its workspace files.</p>`
            : html`<p class="note meta" data-role="files-unavailable">Files are not available on this deployment: it runs on Cloudflare Workers, which has no file system. The agent can still chat, plan with todos, remember and ask you questions.</p>`
      }
    `;
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
