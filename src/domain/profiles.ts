import { Document, isMap, parse, parseDocument } from 'yaml';
import { DEFAULT_PROFILE, type HermesFiles, type HermesHome, type HermesHomes } from '../ports/hermes-home.js';
import { checkConfigSyntax } from '../agent/config-edit.js';
import { setDotenvValue } from '../agent/dotenv-edit.js';
import { KNOWN } from '../agent/providers/resolve.js';

/** One row of `GET /api/profiles` (the incumbent's fields). */
export interface ProfileRow {
  name: string;
  path: string;
  is_default: boolean;
  is_active: boolean;
  /** Not known here: liveness needs the gateway's process (see docs). */
  gateway_running: null;
  model: string | null;
  provider: string | null;
  has_env: boolean;
  skill_count: number;
  enabled_skills: number;
  total_skills: number;
}

/** What a new profile starts from: another profile's files, or an endpoint, key and model. */
export interface CreateProfileInput {
  name: string;
  /** Copy config.yaml, .env and SOUL.md from this profile (or, with `clone_config`, the active one). */
  clone_from?: string | null;
  clone_config?: boolean;
  base_url?: string | null;
  api_key?: string | null;
  default_model?: string | null;
  model_provider?: string | null;
}

const join = (root: string, ...parts: string[]) => [root.replace(/\/+$/, ''), ...parts].join('/');

/**
 * The .env variable Hermes' provider layer reads for a provider's key (config.yaml's
 * `model.api_key` is not where a key belongs); unknown providers get HERMES_API_KEY.
 */
const PROVIDER_KEY_ENV: Record<string, string> = {
  ...Object.fromEntries(Object.entries(KNOWN).flatMap(([id, p]) => (p.keyEnvs[0] ? [[id, p.keyEnvs[0]]] : []))),
  'kimi-coding': 'KIMI_API_KEY',
  'kimi-coding-cn': 'KIMI_CN_API_KEY',
  deepseek: 'DEEPSEEK_API_KEY',
  google: 'GEMINI_API_KEY',
  gemini: 'GEMINI_API_KEY',
  xai: 'XAI_API_KEY',
  groq: 'GROQ_API_KEY',
  minimax: 'MINIMAX_API_KEY',
  'minimax-cn': 'MINIMAX_CN_API_KEY',
  mistral: 'MISTRAL_API_KEY',
  zai: 'ZAI_API_KEY',
  dashscope: 'DASHSCOPE_API_KEY',
  kilocode: 'KILOCODE_API_KEY',
  cerebras: 'CEREBRAS_API_KEY',
  'github-copilot': 'COPILOT_GITHUB_TOKEN',
  nous: 'NOUS_API_KEY',
};

export function keyEnvFor(provider: string | null | undefined): string {
  return (provider && PROVIDER_KEY_ENV[provider.trim().toLowerCase()]) || 'HERMES_API_KEY';
}

/** The header a fresh profile's .env starts with, so it owns a credentials file from day one. */
const FRESH_ENV = '# Secrets of this Hermes profile (API keys, tokens); they override the shell environment.\n# Settings belong in config.yaml.\n';

/** `model.default` (or the older `model.model`, or a plain `model: name`) and `model.provider`. */
export function configModel(configYaml: string | null): { model: string | null; provider: string | null } {
  let data: unknown;
  try {
    data = configYaml ? parse(configYaml) : null;
  } catch {
    return { model: null, provider: null };
  }
  const model = (data as { model?: unknown } | null)?.model;
  if (typeof model === 'string') return { model: model || null, provider: null };
  if (model && typeof model === 'object') {
    const m = model as Record<string, unknown>;
    const name = m.default || m.model;
    return { model: typeof name === 'string' ? name : null, provider: typeof m.provider === 'string' ? m.provider : null };
  }
  return { model: null, provider: null };
}

/** `skills.disabled` as names (Hermes accepts one name or a list). */
function disabledSkills(configYaml: string | null): Set<string> {
  try {
    const skills = (configYaml ? parse(configYaml) : null)?.skills;
    const list = skills?.disabled;
    return new Set((typeof list === 'string' ? [list] : Array.isArray(list) ? list : []).map((v: unknown) => String(v).trim()));
  } catch {
    return new Set();
  }
}

/** The folders holding a SKILL.md under `dir`, by folder name; hidden folders (.git, .hub) are skipped. */
async function skillFolders(files: HermesFiles, dir: string, depth = 0): Promise<string[]> {
  if (depth > 6) return [];
  const entries = await files.list(dir);
  const found = entries.some((e) => e.name === 'SKILL.md' && e.kind === 'file') ? [dir.slice(dir.lastIndexOf('/') + 1)] : [];
  const nested = await Promise.all(
    entries.filter((e) => e.kind === 'dir' && !e.name.startsWith('.')).map((e) => skillFolders(files, join(dir, e.name), depth + 1)),
  );
  return [...found, ...nested.flat()];
}

export async function profileRow(home: HermesHome, active: string): Promise<ProfileRow> {
  const [{ configYaml }, env, skills] = await Promise.all([
    home.config.readFiles(),
    home.files.stat(join(home.root, '.env')),
    skillFolders(home.files, join(home.root, 'skills')),
  ]);
  const disabled = disabledSkills(configYaml);
  const enabled = skills.filter((name) => !disabled.has(name)).length;
  return {
    name: home.profile,
    path: home.root,
    is_default: home.profile === DEFAULT_PROFILE,
    is_active: home.profile === active,
    gateway_running: null,
    ...configModel(configYaml),
    has_env: env !== null,
    skill_count: enabled,
    enabled_skills: enabled,
    total_skills: skills.length,
  };
}

export async function profileRows(homes: HermesHomes, active: string): Promise<ProfileRow[]> {
  const names = await homes.list();
  const found = await Promise.all(names.map((n) => homes.get(n).catch(() => null)));
  return Promise.all(found.filter((h): h is HermesHome => h !== null).map((h) => profileRow(h, active)));
}

/** The `model:` block of a config.yaml as its own config.yaml text (comments inside kept), or null. */
function modelBlockOnly(configYaml: string | null): string | null {
  if (!configYaml) return null;
  const doc = parseDocument(configYaml);
  if (doc.errors.length || !isMap(doc.contents)) return null;
  const model = doc.get('model', true);
  if (!model) return null;
  const out = new Document({});
  out.set('model', model);
  return String(out);
}

/**
 * Makes a profile as `hermes profile create` lays it out: Hermes' folders, then either the
 * clone's config.yaml, .env (0600) and SOUL.md, or the active profile's `model:` block; a key
 * goes into .env under the provider's variable and the endpoint and model into config.yaml.
 */
export async function createProfile(homes: HermesHomes, active: HermesHome, input: CreateProfileInput): Promise<HermesHome> {
  const cloning = input.clone_from != null || !!input.clone_config;
  const source = cloning ? (input.clone_from ? await homes.get(input.clone_from) : active) : null;
  const sourceFiles = source ? await source.config.readFiles() : null;
  // A clone of a damaged config.yaml would carry the damage, and the endpoint edit would fail.
  if (sourceFiles?.configYaml && (input.base_url || input.default_model || input.model_provider)) checkConfigSyntax(sourceFiles.configYaml);
  const home = await homes.create(input.name);
  try {
    if (source && sourceFiles) {
      if (sourceFiles.configYaml !== null) await home.config.updateConfigYaml(() => sourceFiles.configYaml!);
      if (sourceFiles.dotenv !== null) await home.config.updateDotenv(() => sourceFiles.dotenv!);
      const soul = await source.files.readText(join(source.root, 'SOUL.md'));
      if (soul !== null) await home.files.writeText(join(home.root, 'SOUL.md'), soul);
    } else {
      const block = modelBlockOnly((await active.config.readFiles()).configYaml);
      if (block) await home.config.updateConfigYaml(() => block);
    }
    await home.config.updateDotenv((text) => text ?? FRESH_ENV);
    if (input.api_key) await home.config.updateDotenv((text) => setDotenvValue(text, keyEnvFor(input.model_provider), input.api_key!));
    if (input.base_url || input.default_model || input.model_provider) await home.config.updateConfigYaml((text) => withEndpoint(text, input));
  } catch (err) {
    // No half-made profile is left behind.
    await homes.remove(input.name).catch(() => {});
    throw err;
  }
  return home;
}

/** `model.base_url`, `model.default` and `model.provider` set where given; every other key and comment kept. */
function withEndpoint(text: string | null, input: CreateProfileInput): string {
  checkConfigSyntax(text);
  const parsed = parseDocument(text ?? '');
  // An empty file has no mapping to add keys to.
  const doc = parsed.contents === null ? new Document({}) : parsed;
  let model = doc.get('model', true);
  if (!isMap(model)) {
    // A plain `model: name` becomes `{default: name}`, Hermes' longer form.
    const name = configModel(text).model;
    model = doc.createNode(name ? { default: name } : {});
    doc.set('model', model);
  }
  const map = model as import('yaml').YAMLMap;
  if (input.default_model) map.set(map.has('model') && !map.has('default') ? 'model' : 'default', input.default_model);
  if (input.model_provider) map.set('provider', input.model_provider);
  if (input.base_url) map.set('base_url', input.base_url);
  return String(doc);
}
