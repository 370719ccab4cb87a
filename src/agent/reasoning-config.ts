import { isMap, parseDocument, type Document } from 'yaml';
import { ConfigSyntaxError } from './config-edit.js';
import { parseEffort, supportedEfforts, type ReasoningEffort } from './reasoning.js';

/** What `GET /api/reasoning` answers (the incumbent's fields). */
export interface ReasoningStatus {
  show_reasoning: boolean;
  /** '' when unset: the provider's default. */
  reasoning_effort: ReasoningEffort | '';
  supported_efforts: ReasoningEffort[];
  supports_reasoning_effort: boolean;
  supports_thinking_toggle: boolean;
}

function parse(text: string | null): Document {
  const doc = parseDocument(text ?? '');
  const err = doc.errors[0];
  if (err) throw new ConfigSyntaxError(`config.yaml is not valid YAML: ${err.message.split('\n')[0]}`);
  if (doc.contents !== null && !isMap(doc.contents)) throw new ConfigSyntaxError('config.yaml must be a mapping of keys (like "model:") at the top level');
  return doc;
}

/** Sets `section.key`, turning a missing or scalar section into a mapping; other keys and comments stay. */
function setIn(text: string | null, section: string, key: string, value: unknown): string {
  const doc = parse(text);
  if (!isMap(doc.get(section, true))) doc.set(section, doc.createNode({}));
  if (value === undefined) doc.deleteIn([section, key]);
  else doc.setIn([section, key], value);
  return String(doc);
}

/** `display.show_reasoning`, as `/reasoning show|hide` writes it in the CLI. */
export const setShowReasoning = (text: string | null, show: boolean) => setIn(text, 'display', 'show_reasoning', show);

/** `agent.reasoning_effort`; null removes the key so the provider default applies again. */
export const setReasoningEffort = (text: string | null, effort: ReasoningEffort | null) => setIn(text, 'agent', 'reasoning_effort', effort ?? undefined);

/**
 * The status for a model (the request's, else config.yaml's `model.default` and `model.provider`).
 * The effort reported is what the provider will be sent: a level the model does not take is ''.
 */
export function reasoningStatus(text: string | null, target: { model?: string | null; provider?: string | null } = {}): ReasoningStatus {
  const doc = parse(text);
  const show = doc.getIn(['display', 'show_reasoning']);
  const modelNode = doc.get('model');
  const model =
    target.model || (typeof modelNode === 'string' ? modelNode : String(doc.getIn(['model', 'default']) ?? doc.getIn(['model', 'model']) ?? '')) || null;
  const provider = target.provider || (doc.getIn(['model', 'provider']) as string | undefined) || null;
  const supported = supportedEfforts(model, provider);
  const effort = parseEffort(doc.getIn(['agent', 'reasoning_effort']));
  const shown = effort === 'none' || (effort !== null && supported.includes(effort)) ? effort : null;
  return {
    // Hermes' default when unset: shown.
    show_reasoning: typeof show === 'boolean' ? show : true,
    reasoning_effort: supported.length ? (shown ?? '') : '',
    supported_efforts: supported,
    supports_reasoning_effort: supported.length > 0,
    supports_thinking_toggle: supported.length > 0,
  };
}
