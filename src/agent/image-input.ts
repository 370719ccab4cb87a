import { section, text } from './config-coerce.js';

/** `agent.image_input_mode`, Hermes' values: `auto` decides per model, `native` always sends images, `text` never. */
export type ImageInputMode = 'auto' | 'native' | 'text';

export interface ImageInputConfig {
  mode: ImageInputMode;
  /** An `auxiliary.vision` backend is named (provider other than auto, a model or a base_url). */
  explicitVisionBackend: boolean;
  /** `model.supports_vision` (applies to whatever model the turn uses). */
  modelSupportsVision: boolean | null;
  /** `providers.<name>.models.<model>` and `custom_providers[].models.<model>` overrides, keyed `<provider>\n<model>`. */
  perModel: Record<string, boolean>;
}

const MODES = new Set<ImageInputMode>(['auto', 'native', 'text']);

/** Hermes' strict reading of a capability flag: real booleans, 0/1 and YAML's boolean words; anything else is "not said". */
function capability(raw: unknown): boolean | null {
  if (typeof raw === 'boolean') return raw;
  if (raw === 0 || raw === 1) return raw === 1;
  if (typeof raw !== 'string') return null;
  const word = raw.trim().toLowerCase();
  if (['true', 'yes', 'on', '1'].includes(word)) return true;
  if (['false', 'no', 'off', '0'].includes(word)) return false;
  return null;
}

const key = (provider: string, model: string) => `${provider.toLowerCase()}\n${model}`;

function collectModels(into: Record<string, boolean>, provider: string, models: unknown) {
  if (!models || typeof models !== 'object' || Array.isArray(models)) return;
  for (const [model, entry] of Object.entries(models as Record<string, unknown>)) {
    const e = entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
    const v = capability(e.supports_vision ?? e.vision);
    if (v !== null) into[key(provider, model)] = v;
  }
}

/** The image-routing keys of a parsed config.yaml (loose values read as Hermes reads them). */
export function imageInputConfig(file: Record<string, unknown>): ImageInputConfig {
  const rawMode = String(text(section(file, 'agent').image_input_mode) ?? '').toLowerCase();
  const vision = section(section(file, 'auxiliary'), 'vision');
  const visionProvider = (text(vision.provider) ?? '').toLowerCase();
  const perModel: Record<string, boolean> = {};
  for (const [name, entry] of Object.entries(section(file, 'providers'))) collectModels(perModel, name, (entry as Record<string, unknown> | null)?.models);
  const custom = Array.isArray(file.custom_providers) ? file.custom_providers : [];
  for (const entry of custom) {
    const name = entry && typeof entry === 'object' ? text((entry as Record<string, unknown>).name) : null;
    if (name) collectModels(perModel, name, (entry as Record<string, unknown>).models);
  }
  const model = file.model && typeof file.model === 'object' ? (file.model as Record<string, unknown>) : {};
  return {
    mode: MODES.has(rawMode as ImageInputMode) ? (rawMode as ImageInputMode) : 'auto',
    explicitVisionBackend: Object.keys(vision).length > 0 && !(['', 'auto'].includes(visionProvider) && !text(vision.model) && !text(vision.base_url)),
    modelSupportsVision: capability(model.supports_vision),
    perModel,
  };
}

export const DEFAULT_IMAGE_INPUT: ImageInputConfig = { mode: 'auto', explicitVisionBackend: false, modelSupportsVision: null, perModel: {} };

/**
 * Model families known to read text only. Hermes asks models.dev; without a network catalog we
 * keep the well-known text-only families, and (as the incumbent web UI does) send images to a
 * model nobody says anything about.
 */
const TEXT_ONLY = [
  /(^|\/)gpt-3\.5/i,
  /(^|\/)o1-mini/i,
  /(^|\/)o3-mini/i,
  /(^|\/)deepseek-(chat|coder|reasoner|r1|v[23](?!.*vl))/i,
  /(^|\/)qwq/i,
  /(^|\/)codestral/i,
  /(^|\/)(llama-?3(\.[01])?|llama-?2)(?!.*vision)/i,
  /embed/i,
];

export interface VisionVerdict {
  mode: 'native' | 'text';
  /** Why text was chosen, in words for the warning. */
  reason?: string;
}

/**
 * Whether this turn's images go to the model as image parts (`native`) or as a note (`text`),
 * by Hermes' order: the configured mode; in `auto`, an explicit auxiliary.vision backend means
 * text; then `supports_vision` overrides; then what the model catalog says; then known text-only
 * families; unknown models get images.
 */
export function decideImageInput(config: ImageInputConfig, provider: string, model: string, catalogSays: boolean | null = null): VisionVerdict {
  if (config.mode === 'native') return { mode: 'native' };
  if (config.mode === 'text') return { mode: 'text', reason: 'agent.image_input_mode is text' };
  if (config.explicitVisionBackend) return { mode: 'text', reason: 'auxiliary.vision names the model that looks at images' };
  const names = [provider, provider.startsWith('custom:') ? provider.slice('custom:'.length) : ''].filter(Boolean);
  const override = config.modelSupportsVision ?? names.map((p) => config.perModel[key(p, model)]).find((v) => v !== undefined) ?? null;
  if (override !== null) return override ? { mode: 'native' } : { mode: 'text', reason: `supports_vision is false for ${model}` };
  if (catalogSays !== null) return catalogSays ? { mode: 'native' } : { mode: 'text', reason: `${model} does not take image input` };
  if (TEXT_ONLY.some((re) => re.test(model))) return { mode: 'text', reason: `${model} does not take image input` };
  return { mode: 'native' };
}
