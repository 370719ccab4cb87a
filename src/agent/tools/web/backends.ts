import { guardedFetch } from '../../../http/guarded-fetch.js';
import type { ExtractBackend, HostedBackend, SearchBackend, WebConfig } from './settings.js';

/**
 * The hosted and self-hosted web backends Hermes supports, spoken over fetch with their real
 * request and response formats, normalized to Hermes' shapes: search →
 * `{success, data: {web: [{title, url, description, position}]}}`, extract → one document per
 * URL `{url, title, content, error?}`.
 */

export interface WebHit {
  title: string;
  url: string;
  description: string;
  position: number;
}
export type SearchOutcome = { success: true; data: { web: WebHit[] } } | { success: false; error: string };
export interface WebDocument {
  url: string;
  title: string;
  content: string;
  error?: string;
}

export interface BackendDeps {
  signal: AbortSignal;
  /**
   * Base URLs in place of the public API hosts. A test seam (NodeDepsOverrides.webEndpoints) for
   * scripted servers; production leaves it empty and uses Hermes' own overrides
   * (TAVILY_BASE_URL, FIRECRAWL_API_URL) or the public hosts.
   */
  endpoints?: Partial<Record<HostedBackend, string>>;
}

const SEARCH_TIMEOUT_MS = 20_000;
const EXTRACT_TIMEOUT_MS = 60_000;
const MAX_API_BYTES = 8 * 1024 * 1024;

const NAMES: Record<SearchBackend | ExtractBackend, string> = {
  firecrawl: 'Firecrawl',
  tavily: 'Tavily',
  exa: 'Exa',
  searxng: 'SearXNG',
  'brave-free': 'Brave Search',
  local: 'Local extractor',
};

class MissingKey extends Error {}

function base(c: WebConfig, backend: HostedBackend, deps: BackendDeps): string {
  const fallback: Record<HostedBackend, string> = {
    tavily: c.keys.tavilyBaseUrl ?? 'https://api.tavily.com',
    exa: 'https://api.exa.ai',
    firecrawl: c.keys.firecrawlUrl ?? 'https://api.firecrawl.dev',
    'brave-free': 'https://api.search.brave.com',
  };
  return (deps.endpoints?.[backend] ?? fallback[backend]).replace(/\/+$/, '');
}

function key(value: string | null, name: string, where: string): string {
  if (!value) throw new MissingKey(`${name} environment variable not set. Get your API key at ${where}`);
  return value;
}

async function call(url: string, init: RequestInit, deps: BackendDeps, timeoutMs: number): Promise<unknown> {
  const res = await guardedFetch(url, { ...init, signal: deps.signal, timeoutMs, maxBytes: MAX_API_BYTES });
  if (res.status < 200 || res.status >= 300) {
    let detail = '';
    try {
      const body = res.json() as { error?: unknown; detail?: unknown; message?: unknown };
      const msg = body?.error ?? body?.detail ?? body?.message;
      if (typeof msg === 'string') detail = `: ${msg.slice(0, 200)}`;
    } catch {
      // Not JSON: the status alone says enough.
    }
    throw new Error(`HTTP ${res.status}${detail}`);
  }
  return res.json();
}

const post = (url: string, body: unknown, headers: Record<string, string>, deps: BackendDeps, timeoutMs: number) =>
  call(
    url,
    { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body: JSON.stringify(body) },
    deps,
    timeoutMs,
  );

const s = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : String(v));
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object') : []);
const hits = (rows: Array<{ title: unknown; url: unknown; description: unknown }>): WebHit[] =>
  rows.map((r, i) => ({ title: s(r.title), url: s(r.url), description: s(r.description), position: i + 1 }));

function failure(backend: SearchBackend | ExtractBackend, what: string, err: unknown): string {
  if (err instanceof MissingKey) return err.message;
  return `${NAMES[backend]} ${what} failed: ${(err as Error)?.message ?? String(err)}`;
}

export async function searchWith(backend: SearchBackend, c: WebConfig, query: string, limit: number, deps: BackendDeps): Promise<SearchOutcome> {
  try {
    return { success: true, data: { web: await searchRaw(backend, c, query, limit, deps) } };
  } catch (err) {
    if (deps.signal.aborted) throw err;
    return { success: false, error: failure(backend, 'search', err) };
  }
}

async function searchRaw(backend: SearchBackend, c: WebConfig, query: string, limit: number, deps: BackendDeps): Promise<WebHit[]> {
  switch (backend) {
    case 'searxng': {
      if (!c.searxngUrl) throw new MissingKey('SEARXNG_URL is not set (or set web.searxng_url in config.yaml)');
      const url = new URL(`${c.searxngUrl.replace(/\/+$/, '')}/search`);
      url.search = new URLSearchParams({ q: query, format: 'json', pageno: '1' }).toString();
      // A limiter in front of a proxy-less instance rejects requests without a client address.
      const ip = c.keys.searxngClientIp ?? '127.0.0.1';
      const body = (await call(
        url.toString(),
        { headers: { accept: 'application/json', 'x-forwarded-for': ip, 'x-real-ip': ip } },
        deps,
        SEARCH_TIMEOUT_MS,
      )) as {
        results?: unknown;
      };
      const rows = list(body?.results).sort((a, b) => Number(b.score ?? 0) - Number(a.score ?? 0));
      return hits(rows.slice(0, limit).map((r) => ({ title: r.title, url: r.url, description: r.content })));
    }
    case 'tavily': {
      const apiKey = key(c.keys.tavily, 'TAVILY_API_KEY', 'https://app.tavily.com/home');
      const body = (await post(
        `${base(c, 'tavily', deps)}/search`,
        {
          query,
          search_depth: 'advanced',
          chunks_per_source: 3,
          max_results: Math.min(limit, 20),
          include_raw_content: false,
          include_images: false,
          api_key: apiKey,
        },
        {},
        deps,
        SEARCH_TIMEOUT_MS,
      )) as { results?: unknown };
      return hits(list(body?.results).map((r) => ({ title: r.title, url: r.url, description: r.content })));
    }
    case 'exa': {
      const apiKey = key(c.keys.exa, 'EXA_API_KEY', 'https://exa.ai');
      const body = (await post(
        `${base(c, 'exa', deps)}/search`,
        { query, numResults: limit, contents: { highlights: true } },
        { 'x-api-key': apiKey },
        deps,
        SEARCH_TIMEOUT_MS,
      )) as {
        results?: unknown;
      };
      return hits(
        list(body?.results).map((r) => ({ title: r.title, url: r.url, description: Array.isArray(r.highlights) ? r.highlights.map(s).join(' ') : '' })),
      );
    }
    case 'firecrawl': {
      if (!c.keys.firecrawl && !c.keys.firecrawlUrl) {
        throw new MissingKey('Firecrawl client not configured. Set FIRECRAWL_API_KEY (cloud) or FIRECRAWL_API_URL (self-hosted).');
      }
      const auth: Record<string, string> = c.keys.firecrawl ? { authorization: `Bearer ${c.keys.firecrawl}` } : {};
      const body = (await post(`${base(c, 'firecrawl', deps)}/v2/search`, { query, limit }, auth, deps, SEARCH_TIMEOUT_MS)) as {
        data?: { web?: unknown } | unknown[];
      };
      const rows = Array.isArray(body?.data) ? body.data : (body?.data as { web?: unknown })?.web;
      return hits(list(rows).map((r) => ({ title: r.title, url: r.url, description: r.description ?? r.snippet })));
    }
    case 'brave-free': {
      const apiKey = c.keys.brave;
      if (!apiKey) throw new MissingKey('BRAVE_SEARCH_API_KEY is not set');
      const url = new URL(`${base(c, 'brave-free', deps)}/res/v1/web/search`);
      url.search = new URLSearchParams({ q: query, count: String(Math.max(1, Math.min(limit, 20))) }).toString();
      const body = (await call(url.toString(), { headers: { 'x-subscription-token': apiKey, accept: 'application/json' } }, deps, SEARCH_TIMEOUT_MS)) as {
        web?: { results?: unknown };
      };
      return hits(
        list(body?.web?.results)
          .slice(0, limit)
          .map((r) => ({ title: r.title, url: r.url, description: r.description })),
      );
    }
  }
}

/** Extract through a hosted backend; every URL comes back, failures as documents with `error`. */
export async function extractWith(backend: Exclude<ExtractBackend, 'local'>, c: WebConfig, urls: string[], deps: BackendDeps): Promise<WebDocument[]> {
  try {
    return await extractRaw(backend, c, urls, deps);
  } catch (err) {
    if (deps.signal.aborted) throw err;
    const error = failure(backend, 'extract', err);
    return urls.map((url) => ({ url, title: '', content: '', error }));
  }
}

async function extractRaw(backend: Exclude<ExtractBackend, 'local'>, c: WebConfig, urls: string[], deps: BackendDeps): Promise<WebDocument[]> {
  switch (backend) {
    case 'tavily': {
      const apiKey = key(c.keys.tavily, 'TAVILY_API_KEY', 'https://app.tavily.com/home');
      const body = (await post(`${base(c, 'tavily', deps)}/extract`, { urls, include_images: false, api_key: apiKey }, {}, deps, EXTRACT_TIMEOUT_MS)) as {
        results?: unknown;
        failed_results?: unknown;
      };
      return [
        ...list(body?.results).map((r) => ({ url: s(r.url), title: s(r.title), content: s(r.raw_content) || s(r.content) })),
        ...list(body?.failed_results).map((r) => ({ url: s(r.url), title: '', content: '', error: s(r.error) || 'extraction failed' })),
      ];
    }
    case 'exa': {
      const apiKey = key(c.keys.exa, 'EXA_API_KEY', 'https://exa.ai');
      const body = (await post(`${base(c, 'exa', deps)}/contents`, { urls, text: true }, { 'x-api-key': apiKey }, deps, EXTRACT_TIMEOUT_MS)) as {
        results?: unknown;
      };
      return list(body?.results).map((r) => ({ url: s(r.url), title: s(r.title), content: s(r.text) }));
    }
    case 'firecrawl': {
      if (!c.keys.firecrawl && !c.keys.firecrawlUrl) {
        throw new MissingKey('Firecrawl client not configured. Set FIRECRAWL_API_KEY (cloud) or FIRECRAWL_API_URL (self-hosted).');
      }
      const auth: Record<string, string> = c.keys.firecrawl ? { authorization: `Bearer ${c.keys.firecrawl}` } : {};
      const out: WebDocument[] = [];
      for (const url of urls) {
        try {
          const body = (await post(`${base(c, 'firecrawl', deps)}/v2/scrape`, { url, formats: ['markdown'] }, auth, deps, EXTRACT_TIMEOUT_MS)) as {
            data?: { markdown?: unknown; html?: unknown; metadata?: { title?: unknown; sourceURL?: unknown } };
          };
          const d = body?.data ?? {};
          out.push({ url: s(d.metadata?.sourceURL) || url, title: s(d.metadata?.title), content: s(d.markdown) || s(d.html) });
        } catch (err) {
          if (deps.signal.aborted) throw err;
          out.push({ url, title: '', content: '', error: failure('firecrawl', 'extract', err) });
        }
      }
      return out;
    }
  }
}
