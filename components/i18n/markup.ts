import { html, type TemplateResult } from 'lit';

/** Stands in for the value while the sentence is translated (a private-use character no language writes). */
const SLOT = '\uE000';

/**
 * A whole translated sentence with one value set in markup (a bold file name, a code sample):
 * `withMarkup((v) => msg(str`Delete ${v}?`), html`<b>${name}</b>`)`. The sentence is translated
 * as one message, so each language puts the value where its grammar wants it.
 */
export function withMarkup(sentence: (slot: string) => string, value: unknown): TemplateResult {
  const text = sentence(SLOT);
  const at = text.indexOf(SLOT);
  if (at < 0) return html`${text}`;
  return html`${text.slice(0, at)}${value}${text.slice(at + SLOT.length)}`;
}
