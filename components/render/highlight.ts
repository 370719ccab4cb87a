import type { HLJSApi, LanguageFn } from 'highlight.js';

type Loader = () => Promise<{ default: LanguageFn }>;

// Spelled out (not a template path) so esbuild emits one small chunk per language, fetched
// only when a code block in that language appears.
const LOADERS: Record<string, Loader> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  go: () => import('highlight.js/lib/languages/go'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  lua: () => import('highlight.js/lib/languages/lua'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  php: () => import('highlight.js/lib/languages/php'),
  python: () => import('highlight.js/lib/languages/python'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

const ALIASES: Record<string, string> = {
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  console: 'bash',
  shellsession: 'bash',
  h: 'c',
  'c++': 'cpp',
  cc: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  'c#': 'csharp',
  patch: 'diff',
  docker: 'dockerfile',
  golang: 'go',
  toml: 'ini',
  cfg: 'ini',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  node: 'javascript',
  jsonc: 'json',
  json5: 'json',
  kt: 'kotlin',
  make: 'makefile',
  mk: 'makefile',
  md: 'markdown',
  py: 'python',
  python3: 'python',
  rb: 'ruby',
  rs: 'rust',
  postgres: 'sql',
  postgresql: 'sql',
  mysql: 'sql',
  sqlite: 'sql',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  html: 'xml',
  htm: 'xml',
  svg: 'xml',
  vue: 'xml',
  yml: 'yaml',
};

let hljs: HLJSApi | null = null;
let core: Promise<HLJSApi> | null = null;
const registered = new Set<string>();
const failed = new Set<string>();
const loading = new Map<string, Promise<void>>();

/** The highlight.js language a fence label names, or null when none is bundled for it. */
export function languageOf(label: string | undefined): string | null {
  const name = (label ?? '').trim().toLowerCase();
  const lang = ALIASES[name] ?? name;
  return lang in LOADERS && !failed.has(lang) ? lang : null;
}

export const canHighlight = (lang: string): boolean => !!hljs && registered.has(lang);

/** Highlighted HTML for code in a registered language (highlight.js escapes the source). */
export function highlight(code: string, lang: string): string {
  return hljs ? hljs.highlight(code, { language: lang, ignoreIllegals: true }).value : code;
}

/** Loads the core and the given languages. Never rejects: a failed language stays plain. */
export function loadLanguages(langs: Iterable<string>): Promise<void> {
  core ??= import('highlight.js/lib/core').then((m) => (hljs = m.default));
  const waits = [...langs].map((lang) => {
    let p = loading.get(lang);
    if (!p) {
      p = Promise.all([core!, LOADERS[lang]!()])
        .then(([api, mod]) => {
          api.registerLanguage(lang, mod.default);
          registered.add(lang);
        })
        .catch(() => {
          failed.add(lang);
        });
      loading.set(lang, p);
    }
    return p;
  });
  return Promise.all(waits).then(() => undefined);
}
