import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { offlineCache } from '../offline/cache.js';
import type { AssistantTurn } from '../state/turns.js';
import { disclosureStyles } from './disclosure-styles.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import './hermes-tool-card.js';
import { startedProcessIds } from './process-ids.js';
import { consume } from '@lit/context';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { uiContext } from '../state/contexts.js';
import type { UiStore } from '../state/ui-store.js';

/** Open/closed per `${sessionId}:${turnIndex}`; only explicitly opened rows are stored. */
export const disclosures = new Map<string, boolean>();

/**
 * Persisted disclosures, read once at startup so rows restore open on first paint (the
 * session fetch is usually slower than this). Never rejects: without IndexedDB, memory only.
 */
export const disclosuresLoaded: Promise<void> = (async () => {
  for (const key of await offlineCache.disclosures()) if (!disclosures.has(key)) disclosures.set(key, true);
})();

export function setDisclosure(key: string, open: boolean): void {
  disclosures.set(key, open);
  offlineCache.setDisclosure(key, open);
}

/** Summary text: terse, one disclosure for all internals. */
export function activitySummary(turn: Pick<AssistantTurn, 'tools' | 'reasoning'>): string {
  const n = turn.tools.length;
  if (!n) return msg('Thinking');
  const count = formatNumber(n);
  return n === 1 ? msg(str`Activity: ${count} tool`) : msg(str`Activity: ${count} tools`);
}

/**
 * The one disclosure row of an assistant turn: reasoning and tool cards, collapsed by default
 * (live and settled; open with `worklog_details_expanded_default`) and remembered per session and
 * turn across chat switches (and, when opened, across reloads).
 */
@customElement('hermes-activity')
@localized()
export class HermesActivity extends LitElement {
  @property({ attribute: false }) turn?: AssistantTurn;
  @property() sessionId = '';
  /** The turn is still running (a spinner shows while it is). */
  @property({ type: Boolean }) live = false;
  @state() private open = false;
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;

  get #key(): string {
    return `${this.sessionId}:${this.turn?.index ?? -1}`;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('sessionId') && !(changed.has('turn') && changed.get('turn')?.index !== this.turn?.index)) return;
    this.open = disclosures.get(this.#key) ?? this.ui?.settings?.worklog_details_expanded_default === true;
    // Persisted state still loading: adopt it when it arrives (only if the user has not toggled).
    const key = this.#key;
    void disclosuresLoaded.then(() => {
      if (this.#key === key && disclosures.get(key) === true && !this.open) this.open = true;
    });
  }

  toggle(open = !this.open): void {
    this.open = open;
    setDisclosure(this.#key, open);
  }

  /** Background processes the turn started stay in sight under the summary, open or closed. */
  #processes(turn: AssistantTurn) {
    const ids = startedProcessIds(turn.tools);
    // The list (and the subagent tree) load with the first turn that has one: out of the shell.
    if (ids.length) void import('./hermes-process-list.js');
    return ids.length ? html`<hermes-process-list .sessionId=${this.sessionId} .ids=${ids}></hermes-process-list>` : nothing;
  }

  override render() {
    const turn = this.turn;
    if (!turn) return nothing;
    if (turn.subagents?.length) void import('./hermes-subagent-tree.js');
    const failed = turn.tools.some((t) => t.status === 'error');
    const running = this.live && (turn.tools.some((t) => t.status === 'running') || !turn.text);
    return html`
      <div class="activity" data-role="activity" data-open=${this.open ? 'true' : 'false'}>
        <button class="summary" aria-expanded=${this.open ? 'true' : 'false'} @click=${() => this.toggle()}>
          <span class="caret">${icons.chevron()}</span>
          <span data-role="activity-summary">${activitySummary(turn)}</span>
          ${running ? html`<span class="state" aria-label=${msg('Running')}>${icons.spinner()}</span>` : nothing}
          ${failed ? html`<span class="state error" data-role="activity-error" title=${msg('A tool failed')} aria-label=${msg('A tool failed')}>${icons.alert()}</span>` : nothing}
        </button>
        ${turn.subagents?.length ? html`<hermes-subagent-tree .subagents=${turn.subagents}></hermes-subagent-tree>` : nothing}
        ${this.#processes(turn)}
        ${
          this.open
            ? html`<div class="body">
              ${turn.reasoning ? html`<div class="thinking" data-role="thinking">${turn.reasoning}</div>` : nothing}
              ${repeat(
                turn.tools,
                (t) => t.id,
                (t) => html`<hermes-tool-card .tool=${t}></hermes-tool-card>`,
              )}
            </div>`
            : nothing
        }
      </div>
    `;
  }

  static override styles = [
    baseStyles,
    disclosureStyles,
    css`
      :host {
        display: block;
        font-family: var(--hermes-font-sans);
        font-size: var(--hermes-text-label);
        line-height: var(--hermes-leading-ui);
      }
      .summary {
        font-size: var(--hermes-text-label);
      }
      .state {
        display: inline-grid;
        margin-left: var(--hermes-space-xs);
      }
      .state.error {
        color: var(--hermes-color-error);
      }
      .body {
        gap: var(--hermes-space-xs);
      }
      .thinking {
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        color: var(--hermes-fg-muted);
        font-size: var(--hermes-text-label);
        padding: var(--hermes-space-xs) 0 var(--hermes-space-sm);
        max-height: 420px;
        overflow-y: auto;
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-activity': HermesActivity;
  }
}
