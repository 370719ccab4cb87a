import { LitElement, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { localized, msg } from '@lit/localize';
import { consume } from '@lit/context';
import { api, type ApiSession } from '../api/client.js';
import { chatContext, sessionsContext, uiContext } from '../state/contexts.js';
import type { ChatStore } from '../state/chat-store.js';
import type { SessionsStore } from '../state/sessions-store.js';
import type { UiStore } from '../state/ui-store.js';
import { StoreController } from '../state/store.js';
import { icons } from '../shared/icons.js';
import { emit } from '../events.js';
import { AttachmentList } from './attachments.js';
import { FileIntake } from './file-intake.js';
import type { CommandContext, SlashItem } from './slash-commands.js';
import { skillCommands, skillInvocation } from './skill-commands.js';
import { loadSlash, SlashMenuController } from './slash-menu-controller.js';
import { composerStyles } from './composer-styles.js';
import { ModelChoice } from './model-choice.js';
import { ComposerDrafts } from './composer-drafts.js';
import { insertAtCaret } from './caret-insert.js';
import './hermes-model-picker.js';
import './hermes-reasoning-chip.js';
import { profileStore } from '../state/profile-store.js';
import './hermes-context-ring.js';
import './hermes-send-mode.js';
import './hermes-workspace-picker.js';
import { rememberWorkspaces, switchWorkspace } from './workspace-switch.js';
import { BusyInput, type MessageMode } from './busy-input.js';
import { attachmentChips, composerMode, hermesImportNote, sendButtons } from './composer-parts.js';
import { requestChips } from './composer-chunks.js';
import type { MessageQueue } from '../state/message-queue.js';
import type { HermesEvent } from '../events.js';

/** Phones: Enter makes a newline there (the on-screen keyboard has no Shift habit). */
const touchOnly = () => matchMedia('(pointer: coarse)').matches && !matchMedia('(any-pointer: fine)').matches;

/**
 * The command surface: message input, attachments, model and workspace chips, slash commands.
 *
 * Sending from the empty view uses `chat.startNew`. Attaching a file there first creates the
 * session (and opens it, so the URL and sidebar follow), because uploads belong to a session;
 * every upload thus starts at once and shows its own progress.
 */
@customElement('hermes-composer')
@localized()
export class HermesComposer extends LitElement {
  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  @consume({ context: sessionsContext, subscribe: true }) sessions?: SessionsStore;

  @state() text = '';
  @state() lastWorkspace: string | null = null;
  /** Chosen in the empty view (the chip, "New chat here", /workspace): the new session's workspace. */
  @state() pendingWorkspace: string | null = null;
  /** The Saved prompts menu is open (its chunk loads on first open). */
  @state() promptsOpen = false;
  @query('textarea') private input?: HTMLTextAreaElement;
  /** The idle placeholder instead of "Message <bot> — / for commands" (set by an embedding <hermes-chat>). */
  @property({ attribute: false }) placeholderText: string | null = null;

  readonly attachments = new AttachmentList(this);
  #files = new FileIntake(
    this,
    (files) => void this.addFiles(files),
    () => this.ui?.settings?.large_text_paste_as_attachment !== false,
  );
  /** While a turn runs: steer, queue or interrupt, and the session's queue (busy-input.ts). */
  readonly busy = new BusyInput(this);
  /** Where queued messages are kept (set before connecting; tests give their own storage). */
  messageQueue?: MessageQueue;
  #stores = new StoreController(this, () => [this.chat, this.ui]);
  /** Set while this element moves the chat into a session it created: keep text and files. */
  #adopting = false;
  #creating: Promise<string> | null = null;
  #models = new ModelChoice(this, (message) => this.ui?.notify(message, 'error'));
  #drafts = new ComposerDrafts(this);

  /** The model a new chat will start with (`<hermes-chat model>` sets it). */
  get pendingModel(): string | null {
    return this.#models.pending;
  }

  set pendingModel(model: string | null) {
    this.#models.pending = model;
  }
  #menu = new SlashMenuController(
    this,
    () => this.#models.ids,
    (item, run) => this.#onPick(item, run),
  );

  override focus(): void {
    void this.updateComplete.then(() => this.input?.focus());
  }

  override connectedCallback(): void {
    super.connectedCallback();
    api.workspaces().then(
      (w) => ((this.lastWorkspace = w.last || null), rememberWorkspaces(w.workspaces)),
      () => {},
    );
    window.addEventListener('hermes-profile-changed', this.#onProfileChanged);
    // Skill names join the `/` menu once they arrive.
    this.#offSkills = skillCommands.subscribe(() => {
      // The chip and the /skills card load with the first skill chosen or listed (out of the shell).
      if (skillCommands.forced || skillCommands.card) void import('./hermes-skill-bar.js');
      this.requestUpdate();
    });
    void skillCommands.load();
    // The profile chip is only for more than one profile: it loads when there are.
    profileStore.addEventListener('change', this.#onProfiles);
    void profileStore.ensure().then(this.#onProfiles, () => {});
  }

  #offSkills: (() => void) | null = null;
  #onProfiles = () => {
    if (profileStore.several) void import('./hermes-profile-chip.js');
  };

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('hermes-profile-changed', this.#onProfileChanged);
    this.#offSkills?.();
    profileStore.removeEventListener('change', this.#onProfiles);
    this.#drafts.flush();
    document.removeEventListener('pointerdown', this.#onOutsidePrompts, true);
  }

  /** Another profile has its own skills, workspace list and last workspace (its models come with hermes-models-changed). */
  #onProfileChanged = () => {
    void skillCommands.load(true);
    void api.workspaces().then(
      (w) => ((this.lastWorkspace = w.last || null), rememberWorkspaces(w.workspaces)),
      () => {},
    );
  };

  override willUpdate(): void {
    this.#takeSteerLeftover();
    const id = this.chat?.targetId ?? null;
    const change = this.#drafts.follow(id, this.chat?.session, this.#adopting);
    if (change === 'same') return;
    // Another session works where it works; a workspace chosen for a new chat is for that chat only.
    if (id) this.pendingWorkspace = null;
    if (change === 'adopted') return;
    if (change === 'switched') this.attachments.clear();
    this.#menu.close(null);
  }

  /** Steer text the turn ended without taking (pending_steer_leftover) comes back into the input, once. */
  #takeSteerLeftover(): void {
    const left = this.chat?.steerLeftover;
    if (!left || !this.chat) return;
    this.chat.steerLeftover = null;
    this.#setText(this.text.trim() ? `${this.text}\n${left}` : left);
    this.ui?.notify(msg('The reply finished before your steer was used: it is back in the composer.'));
  }

  override updated(): void {
    const el = this.input;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight}px`;
  }

  #saveDraft() {
    this.#drafts.save(this.chat?.targetId ?? null, this.text);
  }

  /** Whether something typed here has not been sent (the update prompt asks before reloading). */
  get hasDraft(): boolean {
    return !!this.text.trim();
  }

  #setText(text: string) {
    this.text = text;
    this.#saveDraft();
  }

  /** Text put where the caret is (replacing a selection), the caret after it; dictation keeps a space from a word. */
  #insertAtCaret(insert: string, spaced: boolean): void {
    const el = this.input;
    const next = insertAtCaret(this.text, el?.selectionStart ?? this.text.length, el?.selectionEnd ?? this.text.length, insert, spaced);
    this.#setText(next.text);
    void this.updateComplete.then(() => {
      this.input?.setSelectionRange(next.caret, next.caret);
      this.input?.focus();
    });
  }

  /** A busy send that failed gives its text back (unless something new was typed meanwhile). */
  restoreText(text: string): void {
    if (!this.text.trim()) this.#setText(text);
  }

  /** `/queue` and `/interrupt`: that mode while a turn runs; a normal send when idle. */
  async #sendAs(mode: MessageMode, text: string): Promise<void> {
    if (this.chat?.status !== 'idle' && this.chat?.sessionId) {
      const files = this.attachments.paths;
      this.attachments.clear();
      return this.busy.submit(text, files, mode);
    }
    this.#setText(text);
    await this.send();
  }

  get #model(): string | null {
    return this.chat?.sessionId ? (this.chat.session?.model ?? null) : this.#models.pending;
  }

  #onInput(e: Event) {
    this.#setText((e.target as HTMLTextAreaElement).value);
    this.#menu.index = 0;
  }

  #isSendKey(e: KeyboardEvent): boolean {
    if (e.key !== 'Enter' || e.isComposing || e.keyCode === 229) return false;
    if (e.ctrlKey || e.metaKey) return true;
    const mode = this.ui?.settings?.send_key ?? 'enter';
    if (mode === 'shift+enter') return e.shiftKey;
    if (mode === 'enter') return !e.shiftKey && !e.altKey && !touchOnly();
    return false;
  }

  #onKeyDown(e: KeyboardEvent) {
    if (this.#menu.keydown(e, this.text)) return;
    if (this.#isSendKey(e)) {
      e.preventDefault();
      void this.send();
    }
  }

  #onPick(item: SlashItem, run: boolean) {
    this.#setText(item.complete);
    if (run && item.runnable) void this.send();
    else this.#menu.close(item.runnable ? item.complete : null);
    this.input?.focus();
  }

  /** Sends the text (or runs it as a command). Public for the Send button and tests. */
  async send(): Promise<void> {
    const chat = this.chat;
    const text = this.text.trim();
    if (!chat || !text) return;
    // The commands load with the first `/` typed; a message without one never waits for them.
    let slash: Awaited<ReturnType<typeof loadSlash>> | null = null;
    if (text.startsWith('/')) {
      slash = await loadSlash().catch(() => null);
      // Not loaded (offline before they were ever fetched): the text stays, nothing is sent as a message by mistake.
      if (!slash) return;
    }
    // A /word that names no command here goes to the agent as text (the incumbent's rule).
    if (slash?.isCommand(text)) {
      // Cleared first so the command's draft never lingers (and /undo can fill the input).
      this.#setText('');
      if (!(await slash.runCommand(this.#commandContext(), text)) && !this.text) this.#setText(text);
      this.#menu.close(this.text);
      return;
    }
    if (this.#creating) return;
    if (this.attachments.uploading) return this.ui?.notify(msg('Waiting for uploads to finish…'));
    const attachments = this.attachments.paths;
    this.#setText('');
    this.attachments.clear();
    if (chat.status !== 'idle' && chat.sessionId) return this.busy.submit(text, attachments);
    // `/<skill-name> …` or a `/use` choice: sent with that skill invoked (skill-commands.ts).
    const invoked = skillInvocation(text, slash?.COMMAND_NAMES() ?? []);
    const message = invoked ? invoked.text : text;
    const skill = invoked?.skill ?? null;
    try {
      // The session the view names, loaded or not (offline with no copy, it is queued for it).
      if (chat.targetId) {
        await chat.send(message, { attachments, ...(skill ? { skill } : {}) });
      } else {
        this.#adopting = true;
        const id = await chat.startNew(message, {
          model: this.#models.pending,
          ...(skill ? { skill } : {}),
          ...(this.pendingWorkspace ? { workspace: this.pendingWorkspace } : {}),
        });
        // null: offline, so it was queued; the session opens once the server takes it.
        if (id) this.#opened(id);
      }
    } catch {
      // chat.error says what went wrong; the text comes back so nothing typed is lost.
      if (!this.#adopting) this.attachments.restore(attachments);
      else if (chat.sessionId) this.#opened(chat.sessionId);
      // A /use choice comes back with the text (a `/<skill>` line carries its own).
      if (skill && invoked?.text === text) skillCommands.setForced(skill);
      this.#setText(text);
    } finally {
      this.#adopting = false;
    }
  }

  /** The chat now shows a session this element created: put it in the URL and the sidebar. */
  #opened(id: string) {
    const s = this.chat?.session;
    if (s && s.session_id === id) {
      const { messages: _m, tool_calls: _t, ...meta } = s as ApiSession & { tool_calls?: unknown };
      this.sessions?.insert({ ...meta, pinned: !!meta.pinned, archived: !!meta.archived, project_id: meta.project_id ?? null });
    }
    emit(this, 'hermes-open-session', { sessionId: id, replace: false });
    this.#models.pending = null;
  }

  /** The open session's id, creating one first in the empty view. */
  async #session(): Promise<string> {
    const chat = this.chat!;
    if (chat.sessionId) return chat.sessionId;
    this.#creating ??= (async () => {
      this.#adopting = true;
      try {
        const s = await api.newSession({
          ...(this.#models.pending ? { model: this.#models.pending } : {}),
          ...(this.pendingWorkspace ? { workspace: this.pendingWorkspace } : {}),
        });
        await chat.open(s.session_id);
        this.#opened(s.session_id);
        return s.session_id;
      } finally {
        this.#adopting = false;
        this.#creating = null;
      }
    })();
    return this.#creating;
  }

  /** Attaches and starts uploading (creating the session first in the empty view). */
  async addFiles(files: File[]): Promise<void> {
    if (!files.length || !this.chat) return;
    await this.#session().then(
      (sid) => this.attachments.add(sid, files),
      (err: Error) => this.ui?.notify(err.message, 'error'),
    );
  }

  async #setModel(model: string) {
    const sid = this.chat?.sessionId;
    if (!sid) {
      this.#models.pending = model;
      return;
    }
    const session = await api.update(sid, { model });
    if (this.chat?.session?.session_id === sid) this.chat.session = { ...this.chat.session, model: session.model ?? null };
    this.sessions?.patch(sid, { model: session.model ?? null });
    this.requestUpdate();
  }

  /** The chip's choice or /workspace: the open session moves there; in the empty view, the next new one starts there. */
  async #setWorkspace(path: string, name?: string): Promise<void> {
    const chat = this.chat;
    if (!chat?.sessionId) return void (this.pendingWorkspace = path);
    if (await switchWorkspace({ chat, ui: this.ui!, sessions: this.sessions }, path, name)) this.lastWorkspace = path;
  }

  #onModelChange(e: CustomEvent<{ model: string }>) {
    this.#setModel(e.detail.model).catch((err: Error) => this.ui?.notify(err.message, 'error'));
  }

  #commandContext(): CommandContext {
    return {
      chat: this.chat!,
      ui: this.ui!,
      sessions: this.sessions,
      host: this,
      models: this.#models.ids,
      currentModel: () => this.#model ?? this.#models.catalog?.default_model ?? null,
      setModel: (id) => this.#setModel(id),
      currentWorkspace: () => this.#workspace,
      setWorkspace: (path, name) => this.#setWorkspace(path, name),
      setText: (text) => this.#setText(text),
      restoreAttachments: (paths) => this.attachments.restore(paths),
      sendAs: (mode, text) => this.#sendAs(mode, text),
      openPrompts: () => this.#togglePrompts(true),
    };
  }

  #togglePrompts(open = !this.promptsOpen): void {
    if (open) void import('./hermes-saved-prompts.js');
    this.promptsOpen = open;
    if (open) document.addEventListener('pointerdown', this.#onOutsidePrompts, true);
    else document.removeEventListener('pointerdown', this.#onOutsidePrompts, true);
  }

  #onOutsidePrompts = (e: Event) => {
    const wrap = this.renderRoot.querySelector('[data-role="prompts-wrap"]');
    if (wrap && !e.composedPath().includes(wrap)) this.#togglePrompts(false);
  };

  async #importFromHermes(): Promise<void> {
    try {
      await this.chat?.importFromHermes();
      this.input?.focus();
    } catch (err) {
      this.ui?.notify((err as Error).message, 'error');
    }
  }

  get #workspace(): string {
    const chat = this.chat;
    return (chat?.sessionId ? chat.session?.workspace : this.pendingWorkspace) ?? this.lastWorkspace ?? this.ui?.settings?.default_workspace ?? '';
  }

  override render() {
    const chat = this.chat;
    const bot = this.ui?.settings?.bot_name ?? 'Hermes';
    const { running, fromHermes, hermesLabel, viewOnly, placeholder } = composerMode(chat, this.busy, bot, this.placeholderText);
    // A chip about to show: its chunk now, if the idle fetch has not run yet.
    if (running || this.attachments.items.length || this.busy.items.length) requestChips();
    const items = this.#menu.items(this.text);
    const workspace = this.#workspace;
    const canSend = !viewOnly && !!this.text.trim() && !this.attachments.uploading && !this.#creating;
    return html`
      <div
        class="frame"
        data-role="composer"
        ?data-dragging=${this.#files.dragging}
        @dragenter=${this.#files.drag}
        @dragover=${this.#files.drag}
        @dragleave=${this.#files.leave}
        @drop=${this.#files.drop}
      >
        ${
          items.length
            ? html`<hermes-slash-menu class="menu" .items=${items} .active=${Math.min(this.#menu.index, items.length - 1)} @hermes-slash-pick=${(e: HermesEvent<'hermes-slash-pick'>) => this.#menu.pick(items, e.detail.index, true)}></hermes-slash-menu>`
            : nothing
        }
        ${attachmentChips(this.attachments)}
        ${fromHermes && !running ? hermesImportNote(hermesLabel, () => void this.#importFromHermes()) : nothing}
        <hermes-skill-bar></hermes-skill-bar>
        ${running || this.busy.items.length ? html`<hermes-queue-chips .items=${this.busy.items} .actions=${this.busy}></hermes-queue-chips>` : nothing}
        <textarea
          data-role="composer-input"
          rows="1"
          aria-label=${msg('Message')}
          aria-autocomplete="list"
          placeholder=${placeholder}
          ?disabled=${viewOnly && !running}
          .value=${this.text}
          @input=${this.#onInput}
          @keydown=${this.#onKeyDown}
          @paste=${this.#files.paste}
        ></textarea>
        <div class="bar">
          <button class="icon-button" title=${msg('Attach files')} aria-label=${msg('Attach files')} data-role="attach" @click=${() => this.renderRoot.querySelector<HTMLInputElement>('input[type=file]')?.click()}>${icons.attach()}</button>
          <input type="file" multiple hidden @change=${this.#files.pick} />
          <span class="prompts-wrap" data-role="prompts-wrap">
            <button class="icon-button" title=${msg('Saved prompts')} aria-label=${msg('Saved prompts')} aria-haspopup="dialog" aria-expanded=${this.promptsOpen} data-role="prompts-button" @click=${() => this.#togglePrompts()}>${icons.bookmark()}</button>
            ${
              this.promptsOpen
                ? html`<hermes-saved-prompts
                  .current=${this.text}
                  @hermes-prompt-insert=${(e: HermesEvent<'hermes-prompt-insert'>) => this.#insertAtCaret(e.detail.text, false)}
                  @hermes-popover-close=${() => (this.#togglePrompts(false), this.input?.focus())}
                ></hermes-saved-prompts>`
                : nothing
            }
          </span>
          <hermes-dictation-button @hermes-dictation-text=${(e: HermesEvent<'hermes-dictation-text'>) => this.#insertAtCaret(e.detail.text, true)}></hermes-dictation-button>
          <hermes-workspace-picker
            .value=${workspace}
            .panelOpen=${!!this.ui?.panelOpen}
            @hermes-workspace-pick=${(e: HermesEvent<'hermes-workspace-pick'>) => void this.#setWorkspace(e.detail.path, e.detail.name)}
            @hermes-workspace-new-chat=${(e: HermesEvent<'hermes-workspace-new-chat'>) => ((this.pendingWorkspace = e.detail.path), emit(this, 'hermes-open-session', { sessionId: null }))}
            @hermes-workspace-files=${() => this.ui?.togglePanel()}
          ></hermes-workspace-picker>
          <hermes-model-picker
            .value=${this.#model}
            .catalog=${this.#models.catalog}
            .refreshing=${this.#models.refreshing}
            @hermes-model-change=${this.#onModelChange}
            @hermes-models-refresh=${() => void this.#models.refresh()}
          ></hermes-model-picker>
          <hermes-reasoning-chip .model=${this.#model ?? this.#models.catalog?.default_model ?? null}></hermes-reasoning-chip>
          <hermes-profile-chip></hermes-profile-chip>
          <hermes-agent-badge></hermes-agent-badge>
          <span class="spacer"></span>
          <hermes-context-ring></hermes-context-ring>
          ${sendButtons({ running, canSend, busy: this.busy, send: () => void this.send(), stop: () => void chat?.cancel(), focus: () => this.input?.focus() })}
        </div>
        ${this.#files.dragging ? html`<div class="drop" aria-hidden="true">${msg('Drop files to attach')}</div>` : nothing}
      </div>
    `;
  }

  static override styles = composerStyles;
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-composer': HermesComposer;
  }
}
