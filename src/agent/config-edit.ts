import { isMap, isScalar, isSeq, parseDocument, type Document } from 'yaml';

/** config.yaml does not parse; it is never rewritten. The message says where. */
export class ConfigSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigSyntaxError';
  }
}

/** The document, or ConfigSyntaxError naming the first problem's line and column. */
function parse(text: string | null): Document {
  const doc = parseDocument(text ?? '');
  const err = doc.errors[0];
  if (err) {
    const at = err.linePos?.[0];
    const where = at ? ` at line ${at.line}, column ${at.col}` : '';
    throw new ConfigSyntaxError(`config.yaml is not valid YAML${where}: ${err.message.split('\n')[0]}`);
  }
  if (doc.contents !== null && !isMap(doc.contents)) throw new ConfigSyntaxError('config.yaml must be a mapping of keys (like "model:") at the top level');
  return doc;
}

/** The `model:` mapping, turning a plain `model: name` into `{default: name}`. */
function modelMap(doc: Document) {
  const current = doc.get('model', true);
  if (isMap(current)) return current;
  const node = doc.createNode(isScalar(current) && current.value ? { default: current.value } : {});
  doc.set('model', node);
  return node;
}

/**
 * Sets `model.default`, keeping every other key and comment. A plain `model: name` line becomes
 * that name; a missing `model:` key is added as a mapping.
 *
 * @example
 * setDefaultModel('model:\n  provider: openrouter # keep\n', 'openai/gpt-5')
 */
export function setDefaultModel(configYamlText: string | null, model: string): string {
  const doc = parse(configYamlText);
  const current = doc.get('model', true);
  if (isMap(current)) {
    // Hermes reads `model.default`, and older files `model.model`; keep whichever is there.
    const key = current.has('default') || !current.has('model') ? 'default' : 'model';
    current.set(key, model);
  } else if (isScalar(current)) {
    current.value = model;
  } else {
    doc.set('model', doc.createNode({ default: model }));
  }
  return String(doc);
}

/**
 * The wizard's choice: `model.provider`, `model.default`, and `model.base_url` (removed when
 * null, so a hosted provider is not sent to an old local URL). `apiKey` sets `model.api_key`
 * (a `${VAR}` reference; the key itself lives in .env), null removes it. Other keys and
 * comments are kept.
 */
export function applyModelChoice(text: string | null, choice: { provider: string; model: string; baseUrl: string | null; apiKey?: string | null }): string {
  const doc = parse(text);
  const model = modelMap(doc);
  model.set('provider', choice.provider);
  const key = model.has('default') || !model.has('model') ? 'default' : 'model';
  model.set(key, choice.model);
  if (choice.baseUrl) model.set('base_url', choice.baseUrl);
  else model.delete('base_url');
  if (choice.apiKey !== undefined) {
    if (choice.apiKey) model.set('api_key', choice.apiKey);
    else model.delete('api_key');
  }
  return String(doc);
}

export interface CustomProviderEntry {
  name: string;
  base_url: string;
  key_env?: string | null;
  models?: string[];
}

/** Adds or replaces (by name, case-insensitively) a `custom_providers` entry; others are kept. */
export function upsertCustomProvider(text: string | null, entry: CustomProviderEntry): string {
  const doc = parse(text);
  let list = doc.get('custom_providers', true);
  if (!isSeq(list)) {
    list = doc.createNode([]);
    doc.set('custom_providers', list);
  }
  const seq = list as import('yaml').YAMLSeq;
  const value: Record<string, unknown> = { name: entry.name, base_url: entry.base_url };
  if (entry.key_env) value.key_env = entry.key_env;
  if (entry.models?.length) value.models = Object.fromEntries(entry.models.map((m) => [m, {}]));
  const at = seq.items.findIndex((item) => isMap(item) && String(item.get('name') ?? '').toLowerCase() === entry.name.toLowerCase());
  if (at === -1) {
    seq.add(doc.createNode(value));
  } else {
    // Replace the fields we own; keys a person added by hand (api_mode, context lengths) stay.
    const item = seq.items[at] as import('yaml').YAMLMap;
    item.set('base_url', entry.base_url);
    if (entry.key_env) item.set('key_env', entry.key_env);
    else item.delete('key_env');
    if (entry.models?.length && !item.has('models')) item.set('models', doc.createNode(value.models));
  }
  return String(doc);
}

/** Removes a `custom_providers` entry by name; returns the text unchanged when there is none. */
export function removeCustomProvider(text: string | null, name: string): string {
  const doc = parse(text);
  const list = doc.get('custom_providers', true);
  if (!isSeq(list)) return text ?? '';
  const before = list.items.length;
  list.items = list.items.filter((item) => !(isMap(item) && String(item.get('name') ?? '').toLowerCase() === name.toLowerCase()));
  return list.items.length === before ? (text ?? '') : String(doc);
}

/** Checks that config.yaml parses; throws ConfigSyntaxError saying where it does not. */
export function checkConfigSyntax(text: string | null): void {
  parse(text);
}
