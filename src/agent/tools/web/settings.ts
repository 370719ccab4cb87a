import { z } from 'zod';

/**
 * The `web:` section of config.yaml and the keys its backends read from `.env`, as Hermes' web
 * provider registry (agent/web_search_registry.py) resolves them, plus `web.searxng_url`: our
 * addition, a SearXNG instance named in config.yaml rather than only as SEARXNG_URL.
 */

/** The search backends this runtime speaks, in Hermes' legacy preference order. */
export const SEARCH_BACKENDS = ['firecrawl', 'tavily', 'exa', 'searxng', 'brave-free'] as const;
/** The extract backends; `local` fetches the page itself (no key, HTML and text only). */
export const EXTRACT_BACKENDS = ['firecrawl', 'tavily', 'exa', 'local'] as const;
export type SearchBackend = (typeof SEARCH_BACKENDS)[number];
export type ExtractBackend = (typeof EXTRACT_BACKENDS)[number];
export type HostedBackend = 'firecrawl' | 'tavily' | 'exa' | 'brave-free';

export interface WebConfig {
  /** `web.backend`: the shared choice. */
  backend: string | null;
  /** `web.search_backend` / `web.extract_backend`: per-capability choices, over `web.backend`. */
  searchBackend: string | null;
  extractBackend: string | null;
  /** `web.searxng_url`, else SEARXNG_URL. */
  searxngUrl: string | null;
  /** `security.allow_private_urls` (or the legacy `browser.` key, or HERMES_ALLOW_PRIVATE_URLS): web_extract may fetch private addresses. */
  allowPrivateUrls: boolean;
  /** The backends' keys and base URLs from `.env` / the environment. */
  keys: {
    tavily: string | null;
    tavilyBaseUrl: string | null;
    exa: string | null;
    firecrawl: string | null;
    firecrawlUrl: string | null;
    brave: string | null;
    searxngClientIp: string | null;
  };
}

const text = z.union([z.string(), z.number()]).transform((v) => String(v).trim() || null);
const flag = z.union([z.boolean(), z.string(), z.number()]).transform((v) => v === true || v === 1 || /^(true|1|yes|on)$/i.test(String(v)));
const Section = z
  .object({
    web: z
      .object({ backend: text.nullish(), search_backend: text.nullish(), extract_backend: text.nullish(), searxng_url: text.nullish() })
      .passthrough()
      .nullish()
      .catch(null),
    security: z.object({ allow_private_urls: flag.nullish() }).passthrough().nullish().catch(null),
    browser: z.object({ allow_private_urls: flag.nullish() }).passthrough().nullish().catch(null),
  })
  .passthrough();

function envFlag(value: string | undefined): boolean | null {
  const v = value?.trim().toLowerCase();
  if (v === 'true' || v === '1' || v === 'yes') return true;
  if (v === 'false' || v === '0' || v === 'no') return false;
  return null;
}

/** Reads the web settings from the parsed config.yaml object and the merged environment. */
export function parseWebConfig(file: unknown, env: Record<string, string>): WebConfig {
  const parsed = Section.safeParse(file ?? {});
  const f = parsed.success ? parsed.data : {};
  const web = f.web ?? {};
  const val = (k: string) => env[k]?.trim() || null;
  const lower = (v: string | null | undefined) => v?.toLowerCase() ?? null;
  return {
    backend: lower(web.backend),
    searchBackend: lower(web.search_backend),
    extractBackend: lower(web.extract_backend),
    searxngUrl: web.searxng_url ?? val('SEARXNG_URL'),
    // An explicit HERMES_ALLOW_PRIVATE_URLS=false wins over config.yaml, as in Hermes.
    allowPrivateUrls: envFlag(env.HERMES_ALLOW_PRIVATE_URLS) ?? (f.security?.allow_private_urls === true || f.browser?.allow_private_urls === true),
    keys: {
      tavily: val('TAVILY_API_KEY'),
      tavilyBaseUrl: val('TAVILY_BASE_URL') ?? val('TAVILY_API_URL'),
      exa: val('EXA_API_KEY'),
      firecrawl: val('FIRECRAWL_API_KEY'),
      firecrawlUrl: val('FIRECRAWL_API_URL'),
      brave: val('BRAVE_SEARCH_API_KEY'),
      searxngClientIp: val('SEARXNG_CLIENT_IP'),
    },
  };
}

function available(c: WebConfig, name: string): boolean {
  switch (name) {
    case 'firecrawl':
      return Boolean(c.keys.firecrawl || c.keys.firecrawlUrl);
    case 'tavily':
      return Boolean(c.keys.tavily);
    case 'exa':
      return Boolean(c.keys.exa);
    case 'searxng':
      return Boolean(c.searxngUrl);
    case 'brave-free':
      return Boolean(c.keys.brave);
    default:
      return false;
  }
}

export type Resolved<T> = { backend: T } | { backend: null; configured: string | null };

/**
 * Hermes' resolution: a configured name that can do the job wins even without its key (the
 * call then says which key is missing); else the only available backend, else the first
 * available in the legacy order. `configured` names an unsupported choice for the message.
 */
export function resolveSearchBackend(c: WebConfig): Resolved<SearchBackend> {
  const configured = c.searchBackend ?? c.backend;
  if (configured && (SEARCH_BACKENDS as readonly string[]).includes(configured)) return { backend: configured as SearchBackend };
  // Our addition: a SearXNG URL in config.yaml is a choice in itself.
  if (!configured && c.searxngUrl && !SEARCH_BACKENDS.some((b) => b !== 'searxng' && available(c, b))) return { backend: 'searxng' };
  const found = SEARCH_BACKENDS.find((b) => available(c, b));
  return found ? { backend: found } : { backend: null, configured };
}

/**
 * The extract backend: the configured one when it extracts; else the first keyed hosted one;
 * else `local` whenever web tools are on at all (a search-only backend such as SearXNG or Brave
 * leaves page reading to the built-in fetcher).
 */
export function resolveExtractBackend(c: WebConfig): Resolved<ExtractBackend> {
  const configured = c.extractBackend ?? c.backend;
  if (configured && (EXTRACT_BACKENDS as readonly string[]).includes(configured)) return { backend: configured as ExtractBackend };
  const hosted = (['firecrawl', 'tavily', 'exa'] as const).find((b) => available(c, b));
  if (hosted) return { backend: hosted };
  if (resolveSearchBackend(c).backend || configured) return { backend: 'local' };
  return { backend: null, configured };
}

/** Whether Hermes would register the web tools at all: some backend is configured or keyed. */
export function webToolsEnabled(c: WebConfig): boolean {
  return Boolean(c.backend || c.searchBackend || c.extractBackend || resolveSearchBackend(c).backend);
}

export const NOT_CONFIGURED_SEARCH =
  'No web search provider configured. Set web.search_backend (or web.backend) in config.yaml to one of ' +
  `${SEARCH_BACKENDS.join(', ')} with its API key in ~/.hermes/.env, or set web.searxng_url to a SearXNG instance.`;
