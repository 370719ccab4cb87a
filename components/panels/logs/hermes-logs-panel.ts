import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../../i18n/format.js';
import { baseStyles } from '../../shared/styles.js';
import { panelStyles } from '../panel-styles.js';
import { panelState } from '../panel-state.js';
import { LOG_FILES, LOG_TAILS, logsApi, type LogFile, type LogsAnswer } from '../../api/logs.js';
import { atLeast, classify, type Level, type LogLine } from './log-levels.js';
import { logHintText } from './log-hints.js';

/** File names stay as they are; the server's own log is named in words. Read at render time (a language switch). */
const fileLabel = (f: LogFile): string => (f === 'webui' ? msg('Web UI') : `${f}.log`);
const LEVEL_VALUES: Level[] = ['debug', 'info', 'warning', 'error'];
const levelLabel = (v: Level): string =>
  ({ debug: msg('All levels'), info: msg('Info and above'), warning: msg('Warnings and errors'), error: msg('Errors only') })[v as 'debug'] ?? v;
/** How often auto-refresh asks again while the panel is on screen. */
export const REFRESH_MS = 3000;
/** Within this many pixels of the end counts as "at the bottom" (the view keeps following). */
const FOLLOW_SLACK = 24;

const DEFAULTS = { file: 'agent' as LogFile, tail: 200, level: 'debug' as Level, auto: false, wrap: false };
const remembered = () => panelState('logs', DEFAULTS);

/** The remembered choices, each one still offered (an older build may have stored others). */
function sane(s: typeof DEFAULTS): typeof DEFAULTS {
  return {
    file: LOG_FILES.includes(s.file) ? s.file : DEFAULTS.file,
    tail: (LOG_TAILS as readonly number[]).includes(s.tail) ? s.tail : DEFAULTS.tail,
    level: LEVEL_VALUES.includes(s.level) ? s.level : DEFAULTS.level,
    auto: s.auto === true,
    wrap: s.wrap === true,
  };
}

/**
 * The Logs panel: the end of one log (Hermes' agent, errors and gateway logs of the active
 * profile, or this server's), filtered by level, refreshed every few seconds while it is seen
 * and auto-refresh is on, following the bottom unless the reader scrolled up.
 */
@customElement('hermes-logs-panel')
@localized()
export class HermesLogsPanel extends LitElement {
  static override styles = [
    baseStyles,
    panelStyles,
    css`
      .controls {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: var(--hermes-space-sm);
      }
      select {
        font: inherit;
        font-size: var(--hermes-text-meta);
        color: inherit;
        background: var(--hermes-panel);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-sm);
        padding: 2px var(--hermes-space-xs);
      }
      .controls button,
      label.toggle {
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-muted);
      }
      label.toggle {
        display: inline-flex;
        align-items: center;
        gap: 4px;
        cursor: pointer;
      }
      .meta {
        padding: var(--hermes-space-xs) var(--hermes-space-lg);
        font-size: var(--hermes-text-meta);
        border-bottom: var(--hermes-border-width) solid var(--hermes-border);
      }
      .lines {
        font-family: var(--hermes-font-mono);
        font-size: var(--hermes-text-meta);
        line-height: 1.5;
        padding: var(--hermes-space-sm) var(--hermes-space-lg);
      }
      [data-role='log-line'] {
        white-space: pre;
        padding: 0 var(--hermes-space-xs);
        border-left: 2px solid transparent;
      }
      .lines[data-wrap] [data-role='log-line'] {
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      [data-level='debug'] {
        color: var(--hermes-fg-faint);
      }
      [data-level='warning'] {
        border-left-color: var(--hermes-color-warning);
      }
      [data-level='error'],
      [data-level='critical'] {
        border-left-color: var(--hermes-color-error);
        background: var(--hermes-error-bg);
      }
      .error {
        color: var(--hermes-color-error);
      }
    `,
  ];

  /** How often auto-refresh asks (tests shorten it). */
  refreshMs = REFRESH_MS;
  @state() private file: LogFile = 'agent';
  @state() private tail = 200;
  @state() private level: Level = 'debug';
  @state() private auto = false;
  @state() private wrap = false;
  @state() private answer: LogsAnswer | null = null;
  @state() private error: string | null = null;
  @state() private copied = false;
  @query('.panel-body') private body?: HTMLElement;
  #lines: LogLine[] = [];
  #timer: ReturnType<typeof setInterval> | null = null;
  #loading = 0;
  /** Set when new lines arrive: scroll to the end after they render (the reader was there). */
  #follow = true;

  override connectedCallback(): void {
    super.connectedCallback();
    Object.assign(this, sane(remembered().get()));
    document.addEventListener('visibilitychange', this.#onVisibility);
    this.#schedule();
    void this.refresh();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('visibilitychange', this.#onVisibility);
    this.#stop();
  }

  /** Asks the server for the chosen file again; a slower earlier answer never replaces a newer one. */
  async refresh(): Promise<void> {
    const ticket = ++this.#loading;
    const { file, tail } = this;
    try {
      const answer = await logsApi.get(file, tail);
      if (ticket !== this.#loading) return;
      this.#follow = this.#atBottom();
      this.#lines = classify(answer.lines);
      this.answer = answer;
      this.error = null;
    } catch (err) {
      if (ticket === this.#loading) this.error = (err as Error).message;
    }
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has('answer') && this.#follow && this.body) this.body.scrollTop = this.body.scrollHeight;
  }

  #atBottom(): boolean {
    const b = this.body;
    return !b || !this.answer || b.scrollHeight - b.scrollTop - b.clientHeight <= FOLLOW_SLACK;
  }

  #onVisibility = () => {
    this.#schedule();
    // Back on the tab: catch up at once rather than on the next tick.
    if (this.auto && document.visibilityState === 'visible') void this.refresh();
  };

  /** Auto-refresh runs only while it is on and the tab is visible. */
  #schedule() {
    this.#stop();
    if (this.auto && document.visibilityState === 'visible') this.#timer = setInterval(() => void this.refresh(), this.refreshMs);
  }

  #stop() {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  #set(patch: Partial<{ file: LogFile; tail: number; level: Level; auto: boolean; wrap: boolean }>) {
    Object.assign(this, sane(remembered().set(patch)));
  }

  #choose(patch: { file?: LogFile; tail?: number }) {
    this.#set(patch);
    this.answer = null;
    this.#lines = [];
    void this.refresh();
  }

  #toggleAuto(on: boolean) {
    this.#set({ auto: on });
    this.#schedule();
    if (on) void this.refresh();
  }

  async #copy(lines: LogLine[]) {
    try {
      await navigator.clipboard.writeText(lines.map((l) => l.text).join('\n'));
      this.copied = true;
      setTimeout(() => (this.copied = false), 1500);
    } catch {
      this.error = msg('The browser did not allow copying.');
    }
  }

  override render() {
    const shown = atLeast(this.#lines, this.level);
    const a = this.answer;
    return html`<section data-role="panel" data-panel="logs">
      <header class="panel-head">
        <h2>${msg('Logs')}</h2>
        <div class="controls">
          <select data-role="log-file" aria-label=${msg('Log file')} @change=${(e: Event) => this.#choose({ file: (e.target as HTMLSelectElement).value as LogFile })}>
            ${LOG_FILES.map((f) => html`<option value=${f} ?selected=${f === this.file}>${fileLabel(f)}</option>`)}
          </select>
          <select data-role="log-tail" aria-label=${msg('Lines')} @change=${(e: Event) => this.#choose({ tail: Number((e.target as HTMLSelectElement).value) })}>
            ${LOG_TAILS.map((n) => html`<option value=${n} ?selected=${n === this.tail}>${msg(str`Last ${formatNumber(n)}`)}</option>`)}
          </select>
          <select data-role="log-level" aria-label=${msg('Level')} @change=${(e: Event) => this.#set({ level: (e.target as HTMLSelectElement).value as Level })}>
            ${LEVEL_VALUES.map((v) => html`<option value=${v} ?selected=${v === this.level}>${levelLabel(v)}</option>`)}
          </select>
          <label class="toggle"
            ><input type="checkbox" data-role="log-auto" .checked=${this.auto} @change=${(e: Event) => this.#toggleAuto((e.target as HTMLInputElement).checked)} />${msg('Auto-refresh')}</label
          >
          <label class="toggle"><input type="checkbox" data-role="log-wrap" .checked=${this.wrap} @change=${(e: Event) => this.#set({ wrap: (e.target as HTMLInputElement).checked })} />${msg('Wrap')}</label>
          <button data-role="log-refresh" @click=${() => void this.refresh()}>${msg('Refresh')}</button>
          <button data-role="log-copy" ?disabled=${!shown.length} @click=${() => void this.#copy(shown)}>${this.copied ? msg('Copied') : msg('Copy')}</button>
        </div>
      </header>
      ${
        a && (a.truncated || a.total_bytes)
          ? html`<div class="meta muted" data-role="log-meta">
            ${msg(str`${formatNumber(shown.length)} of ${formatNumber(a.lines.length)} lines`)} · ${formatBytes(a.total_bytes)}${a.truncated ? ` · ${msg('showing the end of the file')}` : ''}
          </div>`
          : nothing
      }
      <div class="panel-body" @scroll=${() => (this.#follow = this.#atBottom())}>
        ${this.error ? html`<p class="error" role="alert" data-role="log-error">${this.error}</p>` : nothing}
        ${a && !a.lines.length ? html`<p class="empty" data-role="log-hint">${logHintText(a) || msg('This log is empty.')}</p>` : nothing}
        ${a?.lines.length && !shown.length ? html`<p class="empty" data-role="log-hint">${msg('No lines at this level.')}</p>` : nothing}
        <div class="lines" ?data-wrap=${this.wrap}>${shown.map((l) => html`<div data-role="log-line" data-level=${l.level}>${l.text}</div>`)}</div>
      </div>
    </section>`;
  }
}

/** A file size in the reader's language (Intl's byte units: "1,5 kB", "1.5 KB"…). */
function formatBytes(n: number): string {
  const [value, unit] = n < 1024 ? [n, 'byte'] : n < 1024 * 1024 ? [n / 1024, 'kilobyte'] : [n / 1024 / 1024, 'megabyte'];
  return formatNumber(value, {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: unit === 'byte' ? 0 : 1,
    minimumFractionDigits: unit === 'byte' ? 0 : 1,
  });
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-logs-panel': HermesLogsPanel;
  }
}
