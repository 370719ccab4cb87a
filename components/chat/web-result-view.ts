import { html, nothing, type TemplateResult } from 'lit';
import { msg } from '@lit/localize';

/**
 * Readable views of web_search and web_extract results inside a tool card: a list of linked
 * results, or each extracted page's title, address and text. A result that is not the tools'
 * JSON (an error text, or a stored preview cut short) returns null and the card shows it raw.
 */

interface Hit {
  title?: unknown;
  url?: unknown;
  description?: unknown;
}
interface Page {
  url?: unknown;
  title?: unknown;
  content?: unknown;
  error?: unknown;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
/** Only web addresses become links; anything else stays text. */
const safeHref = (url: string): string | null => (/^https?:\/\//i.test(url) ? url : null);

function link(url: string, label: string) {
  const href = safeHref(url);
  return href ? html`<a href=${href} target="_blank" rel="noopener noreferrer">${label}</a>` : html`<span>${label}</span>`;
}

function parse(result: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(result) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function webResultView(name: string, result: string): TemplateResult | null {
  if (name !== 'web_search' && name !== 'web_extract') return null;
  const r = parse(result);
  if (!r) return null;
  if (r.success === false) return html`<div class="web-error" data-role="web-error">${text(r.error) || msg('The web tool failed.')}</div>`;
  if (name === 'web_search') {
    const hits = (r.data as { web?: unknown } | undefined)?.web;
    if (!Array.isArray(hits)) return null;
    if (!hits.length) return html`<div class="meta" data-role="web-results">${msg('No results.')}</div>`;
    return html`<ol class="web-results" data-role="web-results">
      ${(hits as Hit[]).map(
        (h) => html`<li>
          ${link(text(h.url), text(h.title) || text(h.url))}
          <div class="web-url mono">${text(h.url)}</div>
          ${text(h.description) ? html`<div class="web-desc">${text(h.description)}</div>` : nothing}
        </li>`,
      )}
    </ol>`;
  }
  const pages = r.results;
  if (!Array.isArray(pages)) return null;
  return html`<div class="web-pages" data-role="web-pages">
    ${(pages as Page[]).map(
      (p) => html`<section class="web-page">
        <div class="web-page-head">${link(text(p.url), text(p.title) || text(p.url))}</div>
        ${text(p.error) ? html`<div class="web-error">${text(p.error)}</div>` : html`<pre class="mono">${text(p.content)}</pre>`}
      </section>`,
    )}
  </div>`;
}
