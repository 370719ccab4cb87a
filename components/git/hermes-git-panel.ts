import { LitElement, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { ApiError } from '../api/client.js';
import { GIT_REFUSALS, gitApi, type GitBranches, type GitDiff, type GitDiffKind, type GitFile, type GitStatus } from '../api/git.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { emit } from '../events.js';
import { gitLetter } from './git-marks.js';
import { gitPanelStyles } from './git-panel-styles.js';
import { gitLetterStyles } from './git-letter-styles.js';
import '../diff/hermes-diff-view.js';
import { formatNumber } from '../i18n/format.js';
import { withMarkup } from '../i18n/markup.js';

type Group = 'conflicts' | 'staged' | 'changes' | 'untracked';
// Titles are read when shown, so a language switch re-renders them.
const GROUPS: Array<{ id: Group; title: () => string; has: (f: GitFile) => boolean }> = [
  { id: 'conflicts', title: () => msg('Conflicts'), has: (f) => f.conflict },
  { id: 'staged', title: () => msg('Staged'), has: (f) => f.staged && !f.conflict },
  { id: 'changes', title: () => msg('Changes'), has: (f) => f.unstaged && !f.conflict && !f.untracked },
  { id: 'untracked', title: () => msg('Untracked'), has: (f) => f.untracked },
];
// The incumbent shows an untracked file's content as its unstaged diff.
const KIND: Record<Group, GitDiffKind> = { conflicts: 'unstaged', staged: 'staged', changes: 'unstaged', untracked: 'unstaged' };

/** Sessions whose server said write actions are off (403 destructive_git_disabled): asked once per page. */
const readOnlySessions = new Set<string>();
/** The server setting that allows write actions (a name, not text to translate). */
const DESTRUCTIVE_ENV = 'HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE=1';

type Notice = { tone: 'quiet' | 'error'; text: string; role?: string };

/**
 * The workspace's Git view: branch (upstream, ahead/behind) with a switcher, fetch/pull/push,
 * the changes grouped Conflicts / Staged / Changes / Untracked with their diffs, stage, unstage
 * and discard per file, and a commit box with a model-suggested message. The owner passes the
 * status it already has; every action's answer carries the next one, announced with
 * `hermes-git-status` so the file tree's badges follow.
 *
 * Write actions need HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE=1 on the server: the first 403 says
 * so, and the controls give way to a quiet explanation.
 *
 * @fires hermes-git-status - local: the status changed after an action or a refresh
 */
@customElement('hermes-git-panel')
@localized()
export class HermesGitPanel extends LitElement {
  @property() sessionId: string | null = null;
  @property({ attribute: false }) status: GitStatus | null = null;

  @state() private branches: GitBranches | null = null;
  @state() private open: { path: string; group: Group } | null = null;
  @state() private diff: GitDiff | null = null;
  @state() private diffError = '';
  @state() private confirming: string | null = null;
  @state() private busy = '';
  @state() private message = '';
  @state() private notice: Notice | null = null;
  @state() private readOnly = false;

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('sessionId')) {
      this.readOnly = !!this.sessionId && readOnlySessions.has(this.sessionId);
      this.open = this.diff = this.confirming = this.notice = null;
      this.branches = null;
      this.message = '';
      if (this.sessionId) {
        if (!this.status) void this.refresh();
        void this.#loadBranches();
      }
    }
  }

  /** Asks the server for the status again (the owner's refresh, a turn's end). */
  async refresh(): Promise<void> {
    const sid = this.sessionId;
    if (!sid) return;
    try {
      this.#setStatus(await gitApi.status(sid), sid);
    } catch (err) {
      if (sid === this.sessionId) this.notice = { tone: 'error', text: (err as Error).message };
    }
  }

  async #loadBranches(): Promise<void> {
    const sid = this.sessionId!;
    try {
      const b = await gitApi.branches(sid);
      if (sid === this.sessionId) this.branches = b;
    } catch {
      // Not a repository (or git failed): the status says so; the switcher stays away.
    }
  }

  #setStatus(status: GitStatus, sid: string): void {
    if (sid !== this.sessionId) return;
    this.status = this.#mine = status;
    emit(this, 'hermes-git-status', { status }, { local: true });
    this.#reconcileDiff(status);
  }

  /** The last status this panel set itself (one the owner passes in, a turn's end, is new to it). */
  #mine: GitStatus | null = null;

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('status') && !changed.has('sessionId') && this.status && this.status !== this.#mine) {
      this.#mine = this.status;
      this.#reconcileDiff(this.status);
    }
  }

  /** The open diff may be stale now: read it again, or close it when the file left its group. */
  #reconcileDiff(status: GitStatus): void {
    const open = this.open;
    if (!open) return;
    const file = status.files?.find((f) => f.path === open.path);
    const group = GROUPS.find((g) => g.id === open.group)!;
    if (file && group.has(file)) void this.#loadDiff(open.path, open.group);
    else this.open = this.diff = null;
  }

  /** Runs one server call; a refusal becomes a notice, and an answer's status is kept. */
  async #act(name: string, work: (sid: string) => Promise<GitStatus | undefined>, done?: string): Promise<boolean> {
    const sid = this.sessionId;
    if (!sid || this.busy) return false;
    this.busy = name;
    this.notice = null;
    try {
      const status = await work(sid);
      if (status) this.#setStatus(status, sid);
      if (done) this.notice = { tone: 'quiet', text: done };
      return true;
    } catch (err) {
      if (sid === this.sessionId) this.#refused(err as Error, sid);
      return false;
    } finally {
      this.busy = '';
    }
  }

  #refused(err: Error, sid: string): void {
    const code = err instanceof ApiError ? err.body.code : undefined;
    if (code === GIT_REFUSALS.readOnly || (err instanceof ApiError && err.status === 403 && /destructive/i.test(err.message))) {
      readOnlySessions.add(sid);
      this.readOnly = true;
      return;
    }
    if (code === GIT_REFUSALS.turnRunning) {
      this.notice = { tone: 'quiet', role: 'git-turn-running', text: msg('A turn is running in this conversation. Try again when it ends.') };
    } else if (code === GIT_REFUSALS.busy) {
      this.notice = { tone: 'quiet', text: msg('Another Git operation is running in this repository. Try again in a moment.') };
    } else {
      this.notice = { tone: 'error', text: err.message };
    }
  }

  async #loadDiff(path: string, group: Group): Promise<void> {
    const sid = this.sessionId!;
    this.diffError = '';
    try {
      const d = await gitApi.diff(sid, path, KIND[group]);
      if (sid === this.sessionId && this.open?.path === path && this.open.group === group) this.diff = d;
    } catch (err) {
      if (sid === this.sessionId) this.diffError = (err as Error).message;
    }
  }

  #toggleDiff(file: GitFile, group: Group): void {
    if (this.open?.path === file.path && this.open.group === group) {
      this.open = this.diff = null;
      return;
    }
    this.open = { path: file.path, group };
    this.diff = null;
    void this.#loadDiff(file.path, group);
  }

  #stage = (paths: string[]) => this.#act('stage', (sid) => gitApi.stage(sid, paths));
  #unstage = (paths: string[]) => this.#act('unstage', (sid) => gitApi.unstage(sid, paths));

  #discard(file: GitFile): void {
    this.confirming = null;
    void this.#act('discard', (sid) => gitApi.discard(sid, [file.path], file.untracked));
  }

  async #suggest(): Promise<void> {
    await this.#act('suggest', async (sid) => {
      const r = await gitApi.commitMessage(sid);
      this.message = r.message;
      return undefined;
    });
  }

  async #commit(): Promise<void> {
    const message = this.message.trim();
    const ok = await this.#act(
      'commit',
      async (sid) => {
        const r = await gitApi.commit(sid, message);
        return r.status;
      },
      msg('Committed.'),
    );
    if (ok) {
      this.message = '';
      void this.#loadBranches();
    }
  }

  #remote(action: 'fetch' | 'pull' | 'push'): void {
    void this.#act(action, async (sid) => {
      const r = await gitApi[action](sid);
      this.notice = r.message ? { tone: 'quiet', text: r.message } : null;
      void this.#loadBranches();
      return r.status;
    });
  }

  #checkout(select: HTMLSelectElement): void {
    const [mode, ref] = [select.value.slice(0, select.value.indexOf(':')), select.value.slice(select.value.indexOf(':') + 1)] as ['local' | 'remote', string];
    if (!ref || ref === this.branches?.current) return;
    void this.#act('checkout', async (sid) => {
      const r = await gitApi.checkout(sid, ref, mode);
      this.branches = r.branches;
      return r.git;
    }).then((ok) => {
      // Refused: the switcher shows the branch that is really checked out.
      if (!ok) select.value = `local:${this.branches?.current ?? ''}`;
    });
  }

  #branchBar(s: GitStatus) {
    const b = this.branches;
    const current = b?.current ?? s.branch ?? 'HEAD';
    const ahead = s.ahead ?? 0;
    const behind = s.behind ?? 0;
    const write = !this.readOnly;
    return html`<div class="branch-bar">
      ${
        b && write && (b.local.length > 1 || b.remote.length)
          ? html`<select data-role="git-branch" aria-label=${msg('Switch branch')} ?disabled=${!!this.busy} @change=${(e: Event) => this.#checkout(e.target as HTMLSelectElement)}>
            ${b.detached ? html`<option value="local:${current}" selected>${msg(str`${current} (detached)`)}</option>` : nothing}
            <optgroup label=${msg('Branches')}>
              ${b.local.map((br) => html`<option value="local:${br.name}" ?selected=${br.name === current}>${br.name}</option>`)}
            </optgroup>
            ${
              b.remote.length
                ? html`<optgroup label=${msg('Remote')}>${b.remote.map((br) => html`<option value="remote:${br.name}">${br.name}</option>`)}</optgroup>`
                : nothing
            }
          </select>`
          : html`<span class="branch mono" data-role="git-branch-name">${current}</span>`
      }
      <span class="upstream meta mono" data-role="git-upstream" title=${s.upstream ? msg(str`Tracking ${s.upstream}`) : msg('No upstream branch')}>
        ${s.upstream || msg('no upstream')}${ahead ? html` <span title=${ahead === 1 ? msg('1 commit to push') : msg(str`${formatNumber(ahead)} commits to push`)}>↑${formatNumber(ahead)}</span>` : nothing}${
          behind
            ? html` <span title=${behind === 1 ? msg('1 commit to pull') : msg(str`${formatNumber(behind)} commits to pull`)}>↓${formatNumber(behind)}</span>`
            : nothing
        }
      </span>
      <span class="remote-actions">
        <button class="outline" data-action="git-fetch" ?disabled=${!!this.busy} title=${msg('Fetch from the remote (changes no files)')} @click=${() => this.#remote('fetch')}>
          ${this.busy === 'fetch' ? icons.spinner() : nothing}${msg('Fetch')}
        </button>
        ${
          write
            ? html`<button class="outline" data-action="git-pull" ?disabled=${!!this.busy || !s.upstream} title=${msg('Pull (fast-forward only)')} @click=${() => this.#remote('pull')}>
                ${this.busy === 'pull' ? icons.spinner() : nothing}${msg('Pull')}
              </button>
              <button class="outline" data-action="git-push" ?disabled=${!!this.busy} title=${msg('Push to the upstream branch')} @click=${() => this.#remote('push')}>
                ${this.busy === 'push' ? icons.spinner() : nothing}${msg('Push')}
              </button>`
            : nothing
        }
      </span>
    </div>`;
  }

  #row(file: GitFile, group: Group) {
    const letter = gitLetter(file);
    const open = this.open?.path === file.path && this.open.group === group;
    const name = file.path.replace(/\/+$/, '').split('/').pop() ?? file.path;
    const dir = file.path.slice(0, file.path.length - name.length).replace(/\/+$/, '');
    const write = !this.readOnly;
    const disabled = !!this.busy;
    if (this.confirming === `${group}:${file.path}`) {
      return html`<li class="file confirm" data-role="git-file" data-path=${file.path} data-group=${group}>
        <span class="confirm-text">${withMarkup(
          (v) => (file.untracked ? msg(str`Delete ${v}? This cannot be undone.`) : msg(str`Discard changes to ${v}? This cannot be undone.`)),
          html`<b>${name}</b>`,
        )}</span>
        <button class="danger" data-action="confirm-discard" @click=${() => this.#discard(file)}>${file.untracked ? msg('Delete') : msg('Discard')}</button>
        <button data-action="cancel-discard" @click=${() => (this.confirming = null)}>${msg('Cancel')}</button>
      </li>`;
    }
    return html`<li class="file" data-role="git-file" data-path=${file.path} data-group=${group} data-status=${letter}>
        <button class="file-main" aria-expanded=${String(open)} title=${file.old_path ? `${file.old_path} → ${file.path}` : file.path} @click=${() => this.#toggleDiff(file, group)}>
          <span class="letter" data-letter=${letter} aria-label=${file.status}>${letter}</span>
          <span class="file-name">${name}</span>
          ${dir ? html`<span class="file-dir meta">${dir}</span>` : nothing}
          ${
            file.binary
              ? html`<span class="counts meta">${msg('binary')}</span>`
              : html`<span class="counts mono" data-role="git-counts"><span class="add">+${formatNumber(file.additions)}</span> <span class="del">−${formatNumber(file.deletions)}</span></span>`
          }
        </button>
        ${
          write
            ? html`<span class="file-actions">
              ${
                group === 'staged'
                  ? html`<button class="icon-button" data-action="unstage" title=${msg('Unstage')} aria-label=${msg(str`Unstage ${file.path}`)} ?disabled=${disabled} @click=${() => this.#unstage([file.path])}>−</button>`
                  : html`${
                      group !== 'conflicts'
                        ? html`<button class="icon-button" data-action="discard" title=${file.untracked ? msg('Delete file') : msg('Discard changes')} aria-label=${msg(str`Discard ${file.path}`)} ?disabled=${disabled} @click=${() => (this.confirming = `${group}:${file.path}`)}>${icons.retry()}</button>`
                        : nothing
                    }
                    <button class="icon-button" data-action="stage" title=${group === 'conflicts' ? msg('Mark resolved (stage)') : msg('Stage')} aria-label=${msg(str`Stage ${file.path}`)} ?disabled=${disabled} @click=${() => this.#stage([file.path])}>+</button>`
              }
            </span>`
            : nothing
        }
      </li>
      ${open ? this.#diffBlock() : nothing}`;
  }

  #diffBlock() {
    const d = this.diff;
    let body: unknown = html`<p class="meta diff-note">${icons.spinner()} ${msg('Loading diff…')}</p>`;
    if (this.diffError) body = html`<p class="diff-note error">${this.diffError}</p>`;
    else if (d?.binary) body = html`<p class="meta diff-note">${msg('Binary file: no text diff.')}</p>`;
    else if (d)
      body = html`<hermes-diff-view .diff=${d.diff}></hermes-diff-view>${
        d.too_large ? html`<p class="meta diff-note">${msg("The diff was cut at the server's size limit.")}</p>` : nothing
      }`;
    return html`<li class="diff" data-role="git-diff">${body}</li>`;
  }

  #groups(files: GitFile[]) {
    return GROUPS.map((g) => {
      const rows = files.filter((f) => !f.ignored && g.has(f));
      if (!rows.length) return nothing;
      const paths = rows.map((f) => f.path);
      const write = !this.readOnly;
      return html`<section class="group" data-role="git-group" data-group=${g.id}>
        <h3>
          <span>${g.title()}</span><span class="count meta">${formatNumber(rows.length)}</span>
          ${
            write && g.id === 'staged'
              ? html`<button class="group-action" data-action="unstage-all" ?disabled=${!!this.busy} @click=${() => this.#unstage(paths)}>${msg('Unstage all')}</button>`
              : write && (g.id === 'changes' || g.id === 'untracked')
                ? html`<button class="group-action" data-action="stage-all" ?disabled=${!!this.busy} @click=${() => this.#stage(paths)}>${msg('Stage all')}</button>`
                : nothing
          }
        </h3>
        <ul>${rows.map((f) => this.#row(f, g.id))}</ul>
      </section>`;
    });
  }

  #commitBox(s: GitStatus) {
    if (this.readOnly) return nothing;
    const staged = s.totals?.staged ?? s.files?.filter((f) => f.staged).length ?? 0;
    const busy = !!this.busy;
    return html`<div class="commit">
      <textarea
        data-role="commit-message"
        rows="3"
        aria-label=${msg('Commit message')}
        placeholder=${staged ? msg('Commit message') : msg('Stage files to commit them')}
        .value=${this.message}
        @input=${(e: Event) => (this.message = (e.target as HTMLTextAreaElement).value)}
        @keydown=${(e: KeyboardEvent) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey) && staged && this.message.trim()) void this.#commit();
        }}
      ></textarea>
      <div class="commit-actions">
        <button class="outline" data-action="suggest" ?disabled=${busy || !staged} title=${msg('Sends the staged diff to the model for a message')} @click=${this.#suggest}>
          ${this.busy === 'suggest' ? icons.spinner() : nothing}${msg('Suggest')}
        </button>
        <button class="primary" data-action="commit" ?disabled=${busy || !staged || !this.message.trim()} @click=${this.#commit}>
          ${this.busy === 'commit' ? icons.spinner() : nothing}${staged ? (staged === 1 ? msg('Commit 1 file') : msg(str`Commit ${formatNumber(staged)} files`)) : msg('Commit')}
        </button>
      </div>
    </div>`;
  }

  override render() {
    const s = this.status;
    if (!this.sessionId) return nothing;
    if (!s) return html`<div data-role="git-panel" class="panel"><p class="meta note">${icons.spinner()} ${msg('Reading the repository…')}</p></div>`;
    if (!s.is_git)
      return html`<div data-role="git-panel" class="panel"><p class="meta note" data-role="git-not-repo">${msg('This workspace is not a Git repository.')}</p></div>`;
    const files = s.files ?? [];
    const n = this.notice;
    return html`<div data-role="git-panel" class="panel" ?data-read-only=${this.readOnly}>
      ${this.#branchBar(s)}
      ${
        this.readOnly
          ? html`<p class="notice quiet" data-role="git-read-only">
            ${withMarkup(
              (v) =>
                msg(
                  str`Read-only: this server does not allow Git changes from the browser. Start it with ${v} to stage, commit, pull, push and switch branches here.`,
                ),
              html`<code>${DESTRUCTIVE_ENV}</code>`,
            )}
          </p>`
          : nothing
      }
      ${n ? html`<p class="notice ${n.tone}" role=${n.tone === 'error' ? 'alert' : 'status'} data-role=${n.role ?? 'git-notice'}>${n.text}</p>` : nothing}
      <div class="changes">
        ${
          files.filter((f) => !f.ignored).length
            ? this.#groups(files)
            : html`<p class="meta note" data-role="git-clean">${icons.check()} ${msg('Nothing to commit: the working tree is clean.')}</p>`
        }
        ${s.truncated ? html`<p class="meta note">${msg('Only the first files are listed.')}</p>` : nothing}
      </div>
      ${this.#commitBox(s)}
    </div>`;
  }

  static override styles = [baseStyles, gitPanelStyles, gitLetterStyles];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-git-panel': HermesGitPanel;
  }
}
