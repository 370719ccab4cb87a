import { isMap, isScalar, isSeq, parseDocument, stringify, type Document, type Node, type YAMLSeq } from 'yaml';
import { LEGACY_KEYS, hermesKeys } from './legacy-keys.js';

const KEY = 'command_allowlist';
/** YAML 1.1 readers (Hermes' PyYAML) take these plain words as booleans/null. */
const AMBIGUOUS = /^(y|yes|n|no|on|off|true|false|null|~)$/i;

/** The legacy stringified list Hermes still reads: `"['a', 'b']"`. */
function parseLegacy(value: string): string[] {
  return value
    .replace(/^\s*\[|\]\s*$/g, '')
    .split(',')
    .map((s) => s.trim().replace(/^['"]|['"]$/g, ''))
    .filter(Boolean);
}

function render(key: string): string {
  return stringify(key, { lineWidth: 0, defaultStringType: AMBIGUOUS.test(key) ? 'QUOTE_DOUBLE' : 'PLAIN' }).trimEnd();
}

/** The file's own layout for a new block list: its indent width and whether `- ` is indented under the key. */
function layout(text: string): { indent: number; indentSeq: boolean } {
  const indent = /^( +)[^\s#-]/m.exec(text)?.[1]?.length ?? 2;
  const flushSeq = /^([ \t]*)[^\s#-][^\n]*:[ \t]*(?:#[^\n]*)?\n(?:[ \t]*(?:#[^\n]*)?\n)*\1- /m.test(text);
  return { indent: Math.min(Math.max(indent, 1), 8), indentSeq: !flushSeq };
}

/**
 * Edits the text around the list so every other byte stays as written (the yaml printer would
 * respace comments and rewrite scalars like `010`). Null when the layout is one it does not handle.
 */
function splice(text: string, node: Node | null | undefined, present: boolean, added: string[], all: string[]): string | null {
  if (!present) {
    const { indent, indentSeq } = layout(text);
    const block = stringify({ [KEY]: all }, { indent, indentSeq, lineWidth: 0, flowCollectionPadding: false }).replace(
      /^(\s*- )(.*)$/gm,
      (_, p: string, v: string) => p + (AMBIGUOUS.test(v) ? render(v) : v),
    );
    return text.trim() ? `${text}${text.endsWith('\n') ? '' : '\n'}${block}` : block;
  }
  if (isSeq(node) && node.range) {
    if (node.flow) {
      const close = node.range[1] - 1;
      if (text[close] !== ']') return null;
      return text.slice(0, close) + (node.items.length ? ', ' : '') + added.map(render).join(', ') + text.slice(close);
    }
    const last = node.items.at(-1) as Node | undefined;
    if (!last?.range) return null;
    const lineStart = text.lastIndexOf('\n', last.range[0] - 1) + 1;
    const prefix = text.slice(lineStart, last.range[0]);
    if (!/^[ \t]*-[ \t]+$/.test(prefix)) return null;
    const nl = text.indexOf('\n', last.range[1]);
    const lines = added.map((k) => `${prefix}${render(k)}\n`).join('');
    return nl < 0 ? `${text}\n${lines}` : text.slice(0, nl + 1) + lines + text.slice(nl + 1);
  }
  if (isScalar(node) && node.range) {
    const [start, end] = node.range;
    const flow = `[${all.map(render).join(', ')}]`;
    const before = /\s$/.test(text.slice(0, start)) ? '' : ' ';
    const after = text[end] === '#' ? ' ' : '';
    return text.slice(0, start) + before + flow + after + text.slice(end);
  }
  return null;
}

const isLegacy = (entry: string): boolean => Object.hasOwn(LEGACY_KEYS, entry);
/** The list with every legacy key replaced by its Hermes keys, each key once, in order. */
const migrated = (list: string[]): string[] => [...new Set(list.flatMap((k) => hermesKeys(k)))];

/**
 * Rewrites legacy entries of a list in place (each becomes its Hermes keys; a key already listed
 * drops its line), touching no other byte. Null when the layout is one it does not handle.
 */
function spliceMigration(text: string, seq: YAMLSeq<Node>): string | null {
  const seen = new Set<string>();
  const edits: Array<{ item: Node; keys: string[] }> = [];
  for (const item of seq.items) {
    const value = String(isScalar(item) ? item.value : item);
    const keys = hermesKeys(value).filter((k) => !seen.has(k));
    for (const k of keys) seen.add(k);
    if (isLegacy(value)) edits.push({ item, keys });
    else if (!keys.length) return null; // a duplicate that was already there: leave it to the printer
  }
  let out = text;
  for (const { item, keys } of edits.reverse()) {
    if (!item.range) return null;
    const [start, end] = item.range;
    if (seq.flow) {
      if (!keys.length) return null;
      out = out.slice(0, start) + keys.map(render).join(', ') + out.slice(end);
      continue;
    }
    const lineStart = out.lastIndexOf('\n', start - 1) + 1;
    const prefix = out.slice(lineStart, start);
    if (!/^[ \t]*-[ \t]+$/.test(prefix)) return null;
    const nl = out.indexOf('\n', end);
    const lineEnd = nl < 0 ? out.length : nl + 1;
    if (!keys.length) {
      out = out.slice(0, lineStart) + out.slice(lineEnd);
      continue;
    }
    const more = keys
      .slice(1)
      .map((k) => `${prefix}${render(k)}\n`)
      .join('');
    out = out.slice(0, start) + render(keys[0]!) + out.slice(end, lineEnd) + (nl < 0 && more ? '\n' : '') + more + out.slice(lineEnd);
  }
  return out;
}

/** Replaces the keys earlier versions of this product wrote with Hermes' keys (text unchanged when there are none). */
function migrateLegacyKeys(text: string, doc: Document): string {
  const node = doc.get(KEY, true) as Node | null | undefined;
  if (!isSeq(node)) return text;
  const list = node.items.map((i) => String(isScalar(i) ? i.value : i));
  if (!list.some(isLegacy)) return text;
  const spliced = spliceMigration(text, node as YAMLSeq<Node>);
  if (spliced !== null) {
    const check = parseDocument(spliced);
    const { [KEY]: after, ...rest } = (check.toJS() ?? {}) as Record<string, unknown>;
    const { [KEY]: _before, ...restBefore } = (doc.toJS() ?? {}) as Record<string, unknown>;
    if (!check.errors.length && JSON.stringify(after) === JSON.stringify(migrated(list)) && JSON.stringify(rest) === JSON.stringify(restBefore)) return spliced;
  }
  const seq = doc.createNode([]) as YAMLSeq<Node>;
  for (const k of migrated(list)) seq.add(doc.createNode(k));
  seq.flow = node.flow;
  doc.set(KEY, seq);
  const { indent, indentSeq } = layout(text);
  return doc.toString({ indent, indentSeq, lineWidth: 0, flowCollectionPadding: false });
}

function sameData(text: string, expected: Document): boolean {
  const doc = parseDocument(text);
  return !doc.errors.length && JSON.stringify(doc.toJS()) === JSON.stringify(expected.toJS());
}

/**
 * Appends pattern keys to the top-level `command_allowlist` of config.yaml text, keeping every
 * other key, their order and all comments. A legacy stringified list becomes a real list, and
 * keys written by earlier versions of this product become Hermes' keys (legacy-keys.ts).
 * Throws (the caller must not write) when the text is not a YAML mapping.
 */
export function addToCommandAllowlist(configYamlText: string | null, keys: string[]): string {
  const original = configYamlText ?? '';
  const crlf = original.includes('\r\n');
  const unmigrated = crlf ? original.replace(/\r\n/g, '\n') : original;
  const first = parseDocument(unmigrated);
  if (first.errors.length) {
    throw new Error(`config.yaml is not valid YAML, so ${KEY} was not changed: ${first.errors[0]!.message.split('\n')[0]}`);
  }
  if (first.contents !== null && !isMap(first.contents)) {
    throw new Error(`config.yaml does not hold a mapping at the top level, so ${KEY} was not changed`);
  }
  const text = migrateLegacyKeys(unmigrated, first);
  const doc = text === unmigrated ? first : parseDocument(text);

  const present = doc.has(KEY);
  const node = doc.get(KEY, true) as Node | null | undefined;
  let existing: string[];
  if (isSeq(node)) existing = node.items.map((i) => String(isScalar(i) ? i.value : i));
  else if (!present || node == null || (isScalar(node) && (node.value === null || node.value === ''))) existing = [];
  else if (isScalar(node) && (typeof node.value === 'string' || typeof node.value === 'number')) existing = migrated(parseLegacy(String(node.value)));
  else throw new Error(`config.yaml: ${KEY} is neither a list nor a string, so it was not changed`);

  const added = [...new Set(keys.filter((k) => typeof k === 'string' && k.trim() !== ''))].filter((k) => !existing.includes(k));
  if (isSeq(node) && !added.length) return text === unmigrated ? original : crlf ? text.replace(/\n/g, '\r\n') : text;
  const all = [...existing, ...added];

  const spliced = splice(text, node, present, added, all);
  const scalar = (k: string): Node => {
    const n = doc.createNode(k);
    if (AMBIGUOUS.test(k)) n.type = 'QUOTE_DOUBLE';
    return n;
  };
  if (isSeq(node)) for (const k of added) (node as YAMLSeq<Node>).add(scalar(k));
  else {
    const list = doc.createNode([]) as YAMLSeq<Node>;
    for (const k of all) list.add(scalar(k));
    if (isScalar(node)) list.comment = node.comment;
    doc.set(KEY, list);
  }

  const { indent, indentSeq } = layout(text);
  const out = spliced !== null && sameData(spliced, doc) ? spliced : doc.toString({ indent, indentSeq, lineWidth: 0, flowCollectionPadding: false });
  return crlf ? out.replace(/\n/g, '\r\n') : out;
}
