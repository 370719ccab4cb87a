import { isMap, isScalar, isSeq, parse as parseYaml, parseDocument, type Document, type YAMLMap } from 'yaml';
import { checkConfigSyntax } from '../agent/config-edit.js';
import { joinPath } from '../agent/tools/paths.js';
import { configNameList } from './skill-rules.js';

/** The `platform_disabled` key this web UI's sessions go by (the incumbent's). */
const PLATFORM = 'webui';

export interface SkillsConfig {
  /** `skills.disabled` joined with `skills.platform_disabled.webui` (Hermes: a global entry holds everywhere). */
  disabled: Set<string>;
  /** `skills.external_dirs`, absolute, without the home's own skills folder. */
  externalDirs: string[];
}

const section = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * config.yaml's `skills:` as the panel honours it. A file that does not parse reads as no
 * settings (Hermes does the same); it is never rewritten.
 */
export function readSkillsConfig(text: string | null, home: { root: string; homeDir: string; env: Record<string, string | undefined> }): SkillsConfig {
  let parsed: unknown = null;
  try {
    parsed = text ? parseYaml(text) : null;
  } catch {
    parsed = null;
  }
  const skills = section(section(parsed).skills);
  const disabled = new Set([...configNameList(skills.disabled), ...configNameList(section(skills.platform_disabled)[PLATFORM])]);
  const raw = typeof skills.external_dirs === 'string' ? [skills.external_dirs] : Array.isArray(skills.external_dirs) ? skills.external_dirs : [];
  const local = joinPath(home.root, 'skills');
  const externalDirs: string[] = [];
  for (const entry of raw) {
    const value = String(entry ?? '').trim();
    if (!value) continue;
    // `~` and `$VAR`/`${VAR}` expand, a relative path hangs off the home, as Hermes resolves them.
    const expanded = value.replace(/\$\{(\w+)\}|\$(\w+)/g, (m, a, b) => home.env[a ?? b] ?? m);
    const path =
      expanded === '~'
        ? home.homeDir
        : expanded.startsWith('~/')
          ? joinPath(home.homeDir, expanded.slice(2))
          : expanded.startsWith('/')
            ? joinPath('/', expanded)
            : joinPath(home.root, expanded);
    if (path !== local && !externalDirs.includes(path)) externalDirs.push(path);
  }
  return { disabled, externalDirs };
}

/** Adds or removes `name` in the list at `key` of `map`, editing a YAML list in place (comments kept). */
function toggleIn(doc: Document, map: YAMLMap, key: string, name: string, enabled: boolean): void {
  const node = map.get(key, true);
  if (isSeq(node)) {
    const has = node.items.some((item) => String(isScalar(item) ? item.value : item).trim() === name);
    if (enabled) node.items = node.items.filter((item) => String(isScalar(item) ? item.value : item).trim() !== name);
    else if (!has) node.add(doc.createNode(name));
    return;
  }
  // A string list (`'["a","b"]'`), one name, or nothing: written back as a YAML list.
  const names = configNameList(isScalar(node) ? node.value : null).filter((n) => n !== name);
  if (!enabled) names.push(name);
  if (!names.length && (node === undefined || node === null) && enabled) return;
  map.set(key, doc.createNode(names));
}

/**
 * config.yaml with the skill enabled or disabled: `skills.disabled` always, and
 * `skills.platform_disabled.webui` when that list exists. Every other key and comment stays;
 * unchanged when there is nothing to change. Throws ConfigSyntaxError for a file that does not parse.
 */
export function setSkillEnabled(text: string | null, name: string, enabled: boolean): string {
  checkConfigSyntax(text);
  const doc = parseDocument(text ?? '');
  const before = String(doc);
  let skills = doc.get('skills', true);
  if (!isMap(skills)) {
    if (enabled) return text ?? '';
    skills = doc.createNode({}) as YAMLMap;
    doc.set('skills', skills);
  }
  const map = skills as YAMLMap;
  toggleIn(doc, map, 'disabled', name, enabled);
  const platform = map.get('platform_disabled', true);
  if (isMap(platform) && platform.has(PLATFORM)) toggleIn(doc, platform, PLATFORM, name, enabled);
  const after = String(doc);
  return after === before ? (text ?? '') : after;
}
