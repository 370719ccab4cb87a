import { LitElement, css, html, nothing, unsafeCSS, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { Terminal, type ITheme } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { terminalApi } from '../api/terminal.js';
import { copyText } from '../render/clipboard.js';
import { emit } from '../events.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import xtermCss from './xterm-css.js';

const RESIZE_DEBOUNCE_MS = 120;

/** A token as `rgba(…)`: xterm wants plain colours, tokens may be color-mix() expressions. */
function resolveColour(probe: CanvasRenderingContext2D, value: string, fallback: string): string {
  probe.clearRect(0, 0, 1, 1);
  probe.fillStyle = fallback;
  probe.fillStyle = value.trim() || fallback;
  probe.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
  return `rgba(${r}, ${g}, ${b}, ${((a ?? 255) / 255).toFixed(3)})`;
}

/** xterm's theme from the Calm Console tokens in effect where the panel sits (dark or light). */
function themeFrom(el: Element): ITheme {
  const style = getComputedStyle(el);
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  // A token missing where the panel sits falls back to the text colour CSS already resolved
  // (the background to transparent: the screen's own CSS background shows through).
  const t = (name: string, fallback = style.color) => resolveColour(ctx, style.getPropertyValue(name), fallback);
  const fg = t('--hermes-fg');
  const colours = {
    red: t('--hermes-color-error'),
    green: t('--hermes-color-success'),
    yellow: t('--hermes-color-warning'),
    blue: t('--hermes-color-info'),
    magenta: t('--hermes-accent'),
    cyan: t('--hermes-color-info'),
  };
  return {
    background: t('--hermes-code-bg', 'transparent'),
    foreground: fg,
    cursor: t('--hermes-accent'),
    cursorAccent: t('--hermes-code-bg', 'transparent'),
    selectionBackground: t('--hermes-selected'),
    black: t('--hermes-fg-faint'),
    white: fg,
    brightBlack: t('--hermes-fg-muted'),
    brightWhite: fg,
    ...colours,
    brightRed: colours.red,
    brightGreen: colours.green,
    brightYellow: colours.yellow,
    brightBlue: colours.blue,
    brightMagenta: colours.magenta,
    brightCyan: colours.cyan,
  };
}

/**
 * The session's shell, docked above the composer (`/terminal`): xterm.js fed by the output
 * stream, keystrokes posted in order, the size following the panel. Copy, clear, restart,
 * collapse, and close (which ends the shell). Loaded only when opened, xterm with it.
 */
@customElement('hermes-terminal-panel')
@localized()
export class HermesTerminalPanel extends LitElement {
  @property() sessionId = '';
  @state() private status: 'starting' | 'running' | 'closed' | 'error' = 'starting';
  @state() private message = '';
  @state() private collapsed = false;
  @state() private engine = '';

  #term: Terminal | null = null;
  #fit: FitAddon | null = null;
  #source: EventSource | null = null;
  #observer: ResizeObserver | null = null;
  /** The theme and skin switches (html[data-theme], [data-skin]) and the system's light/dark: xterm's colours follow. */
  #themeWatch: MutationObserver | null = null;
  #scheme = matchMedia('(prefers-color-scheme: light)');
  #retheme = () => {
    if (this.#term) this.#term.options.theme = themeFrom(this);
  };
  #resizeTimer: ReturnType<typeof setTimeout> | null = null;
  #size = { rows: 0, cols: 0 };
  /** Keystrokes wait here while one POST is in flight: they reach the shell in the order typed. */
  #queued = '';
  #sending = false;

  protected override firstUpdated(): void {
    const host = this.renderRoot.querySelector<HTMLElement>('.screen')!;
    const mono = getComputedStyle(this).getPropertyValue('--hermes-font-mono').trim() || 'monospace';
    this.#term = new Terminal({ theme: themeFrom(this), fontFamily: mono, fontSize: 13, cursorBlink: true, scrollback: 5000, allowProposedApi: false });
    this.#fit = new FitAddon();
    this.#term.loadAddon(this.#fit);
    this.#term.open(host);
    this.#term.onData((data) => this.#type(data));
    this.#fitNow();
    this.#observer = new ResizeObserver(() => this.#scheduleResize());
    this.#observer.observe(host);
    this.#themeWatch = new MutationObserver(this.#retheme);
    this.#themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'data-skin'] });
    this.#scheme.addEventListener('change', this.#retheme);
    void this.#start(false);
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has('collapsed') && !this.collapsed) this.#scheduleResize();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Leaving the view keeps the shell (the panel rejoins it); only Close ends it.
    this.#source?.close();
    this.#source = null;
    this.#observer?.disconnect();
    this.#themeWatch?.disconnect();
    this.#scheme.removeEventListener('change', this.#retheme);
    if (this.#resizeTimer) clearTimeout(this.#resizeTimer);
    this.#term?.dispose();
    this.#term = null;
  }

  /** What xterm shows as text (for the e2e tests and copy). */
  visibleText(): string {
    const buffer = this.#term?.buffer.active;
    if (!buffer) return '';
    const lines: string[] = [];
    for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
    return lines.join('\n').replace(/\n+$/, '');
  }

  override focus(): void {
    this.#term?.focus();
  }

  #fitNow(): void {
    if (!this.#fit || !this.#term || this.collapsed) return;
    try {
      this.#fit.fit();
    } catch {
      /* not laid out yet */
    }
  }

  async #start(restart: boolean): Promise<void> {
    const term = this.#term;
    if (!term || !this.sessionId) return;
    this.#source?.close();
    this.status = 'starting';
    this.message = '';
    try {
      const started = await terminalApi.start(this.sessionId, term.rows, term.cols, restart);
      this.engine = started.engine;
      this.#size = { rows: term.rows, cols: term.cols };
      if (restart) term.reset();
      this.#listen();
      this.status = started.running ? 'running' : 'closed';
      term.focus();
    } catch (err) {
      this.status = 'error';
      this.message = err instanceof Error ? err.message : String(err);
    }
  }

  #listen(): void {
    const source = terminalApi.output(this.sessionId);
    this.#source = source;
    source.addEventListener('output', (e) => {
      this.#term?.write((JSON.parse((e as MessageEvent).data) as { text: string }).text);
    });
    source.addEventListener('terminal_error', (e) => {
      source.close();
      this.status = 'error';
      this.message = (JSON.parse((e as MessageEvent).data) as { error: string }).error;
    });
    source.addEventListener('terminal_closed', (e) => {
      source.close();
      const code = (JSON.parse((e as MessageEvent).data) as { exit_code: number | null }).exit_code;
      if (this.status !== 'error') {
        this.status = 'closed';
        this.message = code === null ? msg('The shell ended.') : msg(str`The shell exited with code ${code}.`);
      }
    });
  }

  #type(data: string): void {
    if (this.status !== 'running') return;
    this.#queued += data;
    void this.#flush();
  }

  async #flush(): Promise<void> {
    if (this.#sending || !this.#queued) return;
    this.#sending = true;
    while (this.#queued) {
      // Under the server's 8,192-character cap per request.
      const chunk = this.#queued.slice(0, 4096);
      this.#queued = this.#queued.slice(chunk.length);
      try {
        await terminalApi.input(this.sessionId, chunk);
      } catch (err) {
        this.#queued = '';
        this.message = err instanceof Error ? err.message : String(err);
      }
    }
    this.#sending = false;
  }

  #scheduleResize(): void {
    if (this.#resizeTimer) clearTimeout(this.#resizeTimer);
    this.#resizeTimer = setTimeout(() => {
      this.#resizeTimer = null;
      this.#fitNow();
      const term = this.#term;
      if (!term || this.status !== 'running') return;
      if (term.rows === this.#size.rows && term.cols === this.#size.cols) return;
      this.#size = { rows: term.rows, cols: term.cols };
      void terminalApi.resize(this.sessionId, term.rows, term.cols).catch(() => {});
    }, RESIZE_DEBOUNCE_MS);
  }

  async #copy(): Promise<void> {
    const term = this.#term;
    if (!term) return;
    const text = term.hasSelection() ? term.getSelection() : this.visibleText();
    this.message = (await copyText(text)) ? msg('Copied.') : msg('Could not copy.');
  }

  #clear(): void {
    this.#term?.clear();
    this.#term?.focus();
  }

  async #close(): Promise<void> {
    this.#source?.close();
    this.#source = null;
    await terminalApi.close(this.sessionId).catch(() => {});
    emit(this, 'hermes-terminal-close', null, { local: true });
  }

  override render() {
    const label = { starting: msg('Starting…'), running: msg('Running'), closed: msg('Ended'), error: msg('Failed') }[this.status];
    return html`
      <section data-role="terminal-panel" data-status=${this.status} class=${this.collapsed ? 'collapsed' : ''} aria-label=${msg('Terminal')}>
        <header>
          <button data-action="collapse" aria-expanded=${String(!this.collapsed)} title=${this.collapsed ? msg('Expand') : msg('Collapse')} @click=${() => (this.collapsed = !this.collapsed)}>
            ${icons.terminal()} <span class="title">${msg('Terminal')}</span>
          </button>
          <span class="status" data-role="terminal-status" title=${this.engine === 'script' ? msg('script(1) fallback: resizing is best effort') : ''}>${label}</span>
          ${this.message ? html`<span class="message" role="status">${this.message}</span>` : nothing}
          <span class="actions">
            <button class="icon-button" data-action="copy" title=${msg('Copy (the selection, else what is shown)')} @click=${() => this.#copy()}>${icons.copy()}</button>
            <button class="icon-button" data-action="clear" title=${msg('Clear')} @click=${() => this.#clear()}>${icons.trash()}</button>
            <button class="icon-button" data-action="restart" title=${msg('Restart the shell')} @click=${() => this.#start(true)}>${icons.retry()}</button>
            <button class="icon-button" data-action="close" title=${msg('Close (ends the shell)')} @click=${() => this.#close()}>${icons.close()}</button>
          </span>
        </header>
        <div class="screen"></div>
      </section>
    `;
  }

  static override styles = [
    baseStyles,
    unsafeCSS(xtermCss),
    css`
      :host {
        display: block;
      }
      section {
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        background: var(--hermes-code-bg);
        overflow: hidden;
      }
      header {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        border-bottom: var(--hermes-border-width) solid var(--hermes-border);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
      }
      .collapsed header {
        border-bottom: none;
      }
      header button {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        color: var(--hermes-fg-muted);
      }
      .title {
        color: var(--hermes-fg);
      }
      .status {
        color: var(--hermes-fg-faint);
      }
      [data-status='error'] .status {
        color: var(--hermes-color-error);
      }
      .message {
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        min-width: 0;
      }
      .actions {
        margin-inline-start: auto;
        display: flex;
        gap: 2px;
      }
      .screen {
        height: 240px;
        min-height: 96px;
        max-height: 70vh;
        resize: vertical;
        overflow: hidden;
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
      }
      .collapsed .screen {
        display: none;
      }
      /* xterm paints its viewport black; the token follows the theme without a repaint. */
      .xterm .xterm-viewport,
      .xterm {
        background-color: var(--hermes-code-bg);
      }
      @media (max-width: 639px) {
        .screen {
          height: 180px;
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-terminal-panel': HermesTerminalPanel;
  }
}
