import { LitElement, css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
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
@localized()
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
      if (u.inputTokens !== null) {
        const [short, full] = [formatTokens(u.inputTokens), formatNumber(u.inputTokens)];
        parts.push(['in', msg(str`${short} in`), msg(str`${full} prompt tokens`)]);
      }
      if (u.outputTokens !== null) {
        const [short, full] = [formatTokens(u.outputTokens), formatNumber(u.outputTokens)];
        parts.push(['out', msg(str`${short} out`), msg(str`${full} output tokens`)]);
      }
      if (u.cachedTokens) {
        const cached = formatTokens(u.cachedTokens);
        const hit = u.cacheHitPercent !== null ? formatNumber(u.cacheHitPercent / 100, { style: 'percent' }) : null;
        parts.push([
          'cached',
          hit === null ? msg(str`${cached} cached`) : msg(str`${cached} cached (${hit})`),
          msg('Prompt tokens read from the provider’s cache'),
        ]);
      }
      if (u.cost !== null) parts.push(['cost', formatCost(u.cost), msg('Cost the provider reported')]);
    }
    if (tps) {
      const rate = formatNumber(u.tps!, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
      parts.push(['tps', msg(str`${rate} tok/s`), msg('Output tokens per second over the whole turn')]);
    }
    if (tokens && u.duration !== null) parts.push(['duration', formatDuration(u.duration), msg('How long the turn took')]);
    if (tokens && u.model) parts.push(['model', u.model, msg('The model that answered')]);
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
