import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg } from '@lit/localize';
import { repeat } from 'lit/directives/repeat.js';
import type { SessionListRow } from '../state/sessions-store.js';
import { baseStyles } from '../shared/styles.js';
import { bucketName, bucketize, type ListItem } from './date-buckets.js';
import { foldSubagents } from './subagent-fold.js';
import './hermes-session-row.js';
import { emit } from '../events.js';

const MOBILE = '(max-width: 639px)';
/** Rows drawn beyond each edge of the viewport, so fast scrolling never shows a gap. */
const OVERSCAN = 8;
/** The list asks for more rows while its end is within this many rows of the viewport. */
const LOAD_AHEAD = 40;

/**
 * The session list as a fixed-row-height virtual list: bucket headers and sessions are items
 * of one height, and only the items in view (plus overscan) are in the DOM, so 10,000 sessions
 * scroll like 50. Arrow keys, Home/End and PageUp/PageDown move focus between sessions.
 *
 * @fires hermes-list-scroll - the list scrolled (menus anchored to a row close)
 * @fires hermes-list-end - the end of the rows is near the viewport: load more if there are more
 */
@customElement('hermes-session-list')
@localized()
export class HermesSessionList extends LitElement {
  @property({ attribute: false }) rows: readonly SessionListRow[] = [];
  @property({ attribute: false }) activeId: string | null = null;
  @property() query = '';
  @property({ attribute: false }) projectColors: ReadonlyMap<string, string | null> = new Map();
  @property({ attribute: false }) renamingId: string | null = null;
  @property({ attribute: false }) menuId: string | null = null;
  /** The `sidebar_density` setting: detailed rows are two lines tall. */
  @property() density: 'compact' | 'detailed' = 'compact';

  @state() private offsetY = 0;
  @state() private viewportHeight = 0;
  /** The session (by id) that holds the roving tabindex. */
  @state() private focusId: string | null = null;
  @state() private mobile = window.matchMedia(MOBILE).matches;

  #items: ListItem[] = [];
  #itemIndex = new Map<string, number>();
  #sessions: number[] = [];
  #day = '';
  #mq = window.matchMedia(MOBILE);
  #resize = new ResizeObserver((entries) => {
    for (const e of entries) this.viewportHeight = e.contentRect.height;
  });

  /** Item height in px: one line, two when search previews show; 44px touch targets on phones. */
  get rowHeight(): number {
    if (this.query || this.density === 'detailed') return this.mobile ? 52 : 44;
    return this.mobile ? 44 : 34;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#mq.addEventListener('change', this.#onMedia);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#mq.removeEventListener('change', this.#onMedia);
    this.#resize.disconnect();
  }

  override firstUpdated(): void {
    // Observing reports the first size too.
    this.#resize.observe(this.#viewport);
  }

  #onMedia = () => (this.mobile = this.#mq.matches);

  get #viewport(): HTMLElement {
    return this.renderRoot.querySelector('.viewport')!;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Re-bucket when the rows change, or at midnight ("Today" becomes "Yesterday").
    const day = new Date().toDateString();
    // The open session matters too: an open subagent child is drawn under its parent.
    if (changed.has('rows') || changed.has('query') || changed.has('activeId') || day !== this.#day) {
      this.#day = day;
      // A search lists every match flat, children included.
      this.#items = bucketize(this.query ? this.rows : foldSubagents(this.rows, this.activeId));
      this.#itemIndex = new Map(this.#items.map((it, i) => [it.key, i]));
      this.#sessions = this.#items.flatMap((it, i) => (it.kind === 'session' ? [i] : []));
    }
    if (changed.has('query') && changed.get('query') !== undefined) {
      // A new search starts at the top.
      this.offsetY = 0;
      if (this.hasUpdated) this.#viewport.scrollTop = 0;
    }
  }

  protected override updated(changed: PropertyValues): void {
    // A scroll, a resize or new rows (a filter can leave too few to scroll) may bring the end near.
    if (!changed.has('offsetY') && !changed.has('viewportHeight') && !changed.has('rows')) return;
    const height = Math.min(this.viewportHeight || innerHeight, innerHeight);
    const lastInView = Math.ceil((this.offsetY + height) / this.rowHeight);
    if (lastInView + LOAD_AHEAD >= this.#items.length) emit(this, 'hermes-list-end', null, { local: true });
  }

  #onScroll = () => {
    this.offsetY = this.#viewport.scrollTop;
    emit(this, 'hermes-list-scroll', null, { local: true });
  };

  /** Scrolls so a session is fully in view (with its bucket header when it leads the bucket). */
  scrollToSession(id: string): void {
    const i = this.#itemIndex.get(id);
    if (i === undefined) return;
    const h = this.rowHeight;
    const vp = this.#viewport;
    const prevIsHeader = this.#items[i - 1]?.kind === 'header';
    const top = (prevIsHeader ? i - 1 : i) * h;
    const bottom = (i + 1) * h;
    if (top < vp.scrollTop) vp.scrollTop = top;
    else if (bottom > vp.scrollTop + vp.clientHeight) vp.scrollTop = bottom - vp.clientHeight;
    this.offsetY = vp.scrollTop;
  }

  firstSessionId(): string | null {
    const i = this.#sessions[0];
    return i === undefined ? null : this.#items[i]!.key;
  }

  /** Moves keyboard focus to a session's row, scrolling it into view first. */
  async focusSession(id: string): Promise<void> {
    this.focusId = id;
    this.scrollToSession(id);
    await this.updateComplete;
    const row = this.#rowEl(id) as (HTMLElement & { updateComplete?: Promise<unknown> }) | null;
    // Let the row finish its own update first (e.g. drop its rename input) so focus lands on the link.
    await row?.updateComplete;
    row?.focus();
  }

  #rowEl(id: string) {
    return this.renderRoot.querySelector<HTMLElement>(`hermes-session-row[data-session-id="${CSS.escape(id)}"]`);
  }

  #onKeyDown = (e: KeyboardEvent) => {
    const origin = e.composedPath()[0] as HTMLElement | undefined;
    if (origin?.tagName === 'INPUT' || !this.#sessions.length) return;
    const row = (e.target as HTMLElement).closest?.('hermes-session-row');
    const id = row?.dataset.sessionId ?? this.focusId;
    const at = id ? this.#sessions.indexOf(this.#itemIndex.get(id) ?? -1) : -1;
    const page = Math.max(1, Math.floor(this.viewportHeight / this.rowHeight) - 1);
    const last = this.#sessions.length - 1;
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: last, PageDown: at + page, PageUp: at - page };
    if (!(e.key in moves)) return;
    e.preventDefault();
    const next = this.#items[this.#sessions[Math.max(0, Math.min(last, moves[e.key]!))]!];
    if (next) void this.focusSession(next.key);
  };

  #onFocusIn = (e: FocusEvent) => {
    const row = (e.target as HTMLElement).closest?.('hermes-session-row');
    if (row?.dataset.sessionId) this.focusId = row.dataset.sessionId;
  };

  /** Indexes of the items to draw: the visible window, plus rows that must not lose their DOM. */
  #window(): number[] {
    const h = this.rowHeight;
    const n = this.#items.length;
    // Before the first layout the height is unknown: draw one screenful. Never more than a
    // screenful either, whatever the layout around the list does.
    const height = Math.min(this.viewportHeight || innerHeight, innerHeight);
    const start = Math.max(0, Math.floor(this.offsetY / h) - OVERSCAN);
    const end = Math.min(n, Math.ceil((this.offsetY + height) / h) + OVERSCAN);
    const out: number[] = [];
    for (let i = start; i < end; i++) out.push(i);
    // The focused row and the row being renamed stay in the DOM when scrolled away, so focus
    // and a half-typed title survive.
    for (const id of [this.#tabbableId(start, end), this.renamingId]) {
      const i = id ? this.#itemIndex.get(id) : undefined;
      if (i !== undefined && (i < start || i >= end)) out.push(i);
    }
    return out.sort((a, b) => a - b);
  }

  /** The session in the tab order: the focused one, else the open one, else the first. */
  #tabbableId(start: number, end: number): string | null {
    for (const id of [this.focusId, this.activeId]) if (id && this.#itemIndex.has(id)) return id;
    const first = this.#sessions.find((i) => i >= start && i < end) ?? this.#sessions[0];
    return first === undefined ? null : this.#items[first]!.key;
  }

  override render() {
    const h = this.rowHeight;
    const indexes = this.#window();
    const tabbable = this.#tabbableId(indexes[0] ?? 0, (indexes[indexes.length - 1] ?? 0) + 1);
    return html`
      <div class="viewport" role="navigation" aria-label=${msg('Chats')} style="--row-h: ${h}px" @scroll=${this.#onScroll} @keydown=${this.#onKeyDown} @focusin=${this.#onFocusIn}>
        <div class="spacer" style="height: ${this.#items.length * h}px">
          ${repeat(
            indexes,
            (i) => this.#items[i]!.key,
            (i) => {
              const item = this.#items[i]!;
              const y = `transform: translateY(${i * h}px)`;
              if (item.kind === 'header')
                return html`<div class="header" role="heading" aria-level="2" data-role="bucket-header" style=${y}>${bucketName(item.label)}</div>`;
              const r = item.row;
              return html`<hermes-session-row
                data-role="session-row"
                data-session-id=${r.session_id}
                style=${y}
                .row=${r}
                .query=${this.query}
                .projectColor=${r.project_id ? (this.projectColors.get(r.project_id) ?? null) : null}
                ?active=${r.session_id === this.activeId}
                ?current=${r.session_id === tabbable}
                ?renaming=${r.session_id === this.renamingId}
                ?menuOpen=${r.session_id === this.menuId}
                ?detailed=${this.density === 'detailed'}
              ></hermes-session-row>`;
            },
          )}
        </div>
      </div>
      ${this.#items.length ? nothing : html`<div class="empty"><slot name="empty"></slot></div>`}
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: flex;
        flex-direction: column;
        min-height: 0;
        position: relative;
      }
      .viewport {
        flex: 1;
        min-height: 0;
        /* The 10,000-row spacer must never size the list: it takes the height it is given. */
        contain: strict;
        overflow-y: auto;
        overscroll-behavior: contain;
        padding: 0 var(--hermes-space-sm);
      }
      .spacer {
        position: relative;
        /* Layout and paint of the rows stay inside the list. */
        contain: strict;
        width: 100%;
      }
      .header,
      hermes-session-row {
        position: absolute;
        top: 0;
        left: 0;
        right: 0;
        height: var(--row-h);
      }
      .empty {
        position: absolute;
        inset: 0 0 auto 0;
      }
      .header {
        display: flex;
        align-items: flex-end;
        /* Lines up with the rows' project dots. */
        padding: 0 var(--hermes-space-md) var(--hermes-space-xs);
        font-size: var(--hermes-text-meta);
        font-weight: 500;
        letter-spacing: 0.02em;
        color: var(--hermes-fg-muted);
        user-select: none;
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-session-list': HermesSessionList;
  }
}
