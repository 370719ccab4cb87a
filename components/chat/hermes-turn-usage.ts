import { LitElement, css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { uiContext } from '../state/contexts.js';
import type { UiStore } from '../state/ui-store.js';
import { StoreController } from '../state/store.js';
import type { TurnUsageView } from '../state/turn-usage.js';
import { formatCost, formatDuration, formatTokens } from './usage-format.js';

/**
 * The usage line under a settled answer: tokens in and out, cached, cost, duration and model
 * behind the `show_token_usage` setting, tokens per second behind `show_tps` (both off by
 * default, as in the incumbent). A figure the turn did not report is left out.
 */
@customElement('hermes-turn-usage')
export class HermesTurnUsage extends LitElement {
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  @property({ attribute: false }) usage: TurnUsageView | null = null;
  #stores = new StoreController(this, () => [this.ui]);

  override render() {
    const u = this.usage;
    const settings = this.ui?.settings;
    const tokens = settings?.show_token_usage === true;
    const tps = settings?.show_tps === true && u?.tps != null;
    if (!u || (!tokens && !tps)) return nothing;
    const parts: Array<[string, string, string]> = [];
    if (tokens) {
      if (u.inputTokens !== null) parts.push(['in', `${formatTokens(u.inputTokens)} in`, `${u.inputTokens.toLocaleString()} prompt tokens`]);
      if (u.outputTokens !== null) parts.push(['out', `${formatTokens(u.outputTokens)} out`, `${u.outputTokens.toLocaleString()} output tokens`]);
      if (u.cachedTokens)
        parts.push([
          'cached',
          `${formatTokens(u.cachedTokens)} cached${u.cacheHitPercent !== null ? ` (${u.cacheHitPercent}%)` : ''}`,
          'Prompt tokens read from the provider’s cache',
        ]);
      if (u.cost !== null) parts.push(['cost', formatCost(u.cost), 'Cost the provider reported']);
    }
    if (tps) parts.push(['tps', `${u.tps!.toFixed(1)} tok/s`, 'Output tokens per second over the whole turn']);
    if (tokens && u.duration !== null) parts.push(['duration', formatDuration(u.duration), 'How long the turn took']);
    if (tokens && u.model) parts.push(['model', u.model, 'The model that answered']);
    if (!parts.length) return nothing;
    return html`<div class="line" data-role="turn-usage">
      ${parts.map(([field, text, title], i) => html`${i ? html`<span class="sep" aria-hidden="true">·</span>` : nothing}<span data-field=${field} title=${title}>${text}</span>`)}
    </div>`;
  }

  static override styles = css`
    :host {
      display: block;
      min-width: 0;
    }
    .line {
      display: flex;
      flex-wrap: wrap;
      gap: 0 var(--hermes-space-xs);
      font-size: var(--hermes-text-label);
      color: var(--hermes-fg-faint);
      font-variant-numeric: tabular-nums;
    }
  `;
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-turn-usage': HermesTurnUsage;
  }
}
