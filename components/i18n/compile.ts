import { str } from '@lit/localize';

/** A locale's messages as translators write them: id → text, `${0}` where the n-th value goes. */
export type Translations = Readonly<Record<string, string>>;

type Template = string | ReturnType<typeof str>;

const PLACEHOLDER = /\$\{(\d+)\}/g;

/**
 * The templates @lit/localize reads: plain strings as they are, and text with placeholders as
 * str-tagged templates (the numbers say which of the source's values goes where, so a
 * translation may reorder them).
 */
export function compile(...tables: Translations[]): Record<string, Template> {
  const out: Record<string, Template> = {};
  for (const table of tables) {
    for (const [id, text] of Object.entries(table)) {
      if (!text.includes('${')) {
        out[id] = text;
        continue;
      }
      const strings: string[] = [];
      const values: number[] = [];
      let last = 0;
      for (const m of text.matchAll(PLACEHOLDER)) {
        strings.push(text.slice(last, m.index));
        values.push(Number(m[1]));
        last = (m.index ?? 0) + m[0].length;
      }
      strings.push(text.slice(last));
      out[id] = str(Object.assign(strings, { raw: [...strings] }) as unknown as TemplateStringsArray, ...values);
    }
  }
  return out;
}
