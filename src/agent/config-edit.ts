import { isMap, isScalar, parseDocument } from 'yaml';

/**
 * Sets `model.default` in config.yaml text, keeping every other key and comment. A plain
 * `model: name` line becomes that name; a missing `model:` key is added as a mapping.
 *
 * @example
 * setDefaultModel('model:\n  provider: openrouter # keep\n', 'openai/gpt-5')
 */
export function setDefaultModel(configYamlText: string | null, model: string): string {
  const doc = parseDocument(configYamlText ?? '');
  if (doc.errors.length) throw new Error(`config.yaml is not valid YAML: ${doc.errors[0]!.message}`);
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
