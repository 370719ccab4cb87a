import { FetchGuardError, guardedFetch } from '../../http/guarded-fetch.js';
import { AppError } from '../../ports/errors.js';

export interface CatalogModel {
  id: string;
  label: string;
  context_length?: number;
  /** Whether the model takes image input, when the list says (OpenRouter's `architecture.input_modalities`, Ollama's `capabilities`, LM Studio's `type: vlm`). */
  vision?: boolean;
}

/** What a model list entry says about image input; undefined when it says nothing. */
function visionOf(rec: Record<string, unknown> | null): boolean | undefined {
  const arch = rec?.architecture as Record<string, unknown> | undefined;
  const inputs = [arch?.input_modalities, rec?.input_modalities, (rec?.modalities as Record<string, unknown> | undefined)?.input].find(Array.isArray);
  if (inputs) return inputs.includes('image');
  if (Array.isArray(rec?.capabilities)) return rec.capabilities.includes('vision');
  if (rec?.type === 'vlm') return true;
  return undefined;
}

export type ProbeErrorKind = 'invalid_url' | 'dns' | 'connect_refused' | 'timeout' | 'http_4xx' | 'http_5xx' | 'parse' | 'unreachable';

export type ProbeResult = { ok: true; base_url: string; models: CatalogModel[] } | { ok: false; error: ProbeErrorKind; detail: string; status?: number };

export interface ProbeTarget {
  baseUrl: string;
  apiKey: string | null;
  api: 'openai' | 'anthropic';
  timeoutMs?: number;
}

/** `<base_url>/models`; Anthropic's root (`https://api.anthropic.com`) answers at `/v1/models`. */
export function modelsUrl(baseUrl: string, api: 'openai' | 'anthropic'): string {
  const root = baseUrl.trim().replace(/\/+$/, '');
  if (api === 'anthropic' && !/\/v\d+$/.test(root)) return `${root}/v1/models`;
  return `${root}/models`;
}

/** A model list in any of the shapes servers answer with: OpenAI `{data}`, Ollama `{models}`, a bare list. */
export function parseModelList(body: unknown): CatalogModel[] | null {
  const list = Array.isArray(body)
    ? body
    : Array.isArray((body as { data?: unknown })?.data)
      ? (body as { data: unknown[] }).data
      : Array.isArray((body as { models?: unknown })?.models)
        ? (body as { models: unknown[] }).models
        : null;
  if (!list) return null;
  const out: CatalogModel[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    const rec = (typeof item === 'string' ? { id: item } : item) as Record<string, unknown> | null;
    const id = typeof rec?.id === 'string' ? rec.id : typeof rec?.name === 'string' ? rec.name : typeof rec?.model === 'string' ? rec.model : null;
    if (!id || seen.has(id) || id.length > 256) continue;
    seen.add(id);
    const label = typeof rec?.display_name === 'string' ? rec.display_name : typeof rec?.name === 'string' && rec.name !== id ? rec.name : id;
    const ctx = [rec?.context_length, rec?.max_model_len, rec?.context_window, (rec?.top_provider as Record<string, unknown> | undefined)?.context_length].find(
      (v) => typeof v === 'number' && v > 0,
    ) as number | undefined;
    const vision = visionOf(rec);
    out.push({ id, label, ...(ctx ? { context_length: ctx } : {}), ...(vision !== undefined ? { vision } : {}) });
  }
  return out;
}

/**
 * Asks a provider for its models: GET `<base_url>/models` through the guarded fetch (http(s)
 * only, no redirects, 5 s, 256 KB). Never throws: a failure is named (`dns`, `connect_refused`,
 * `timeout`, `http_4xx`, …) with a detail a person can act on.
 */
export async function probeModels(target: ProbeTarget): Promise<ProbeResult> {
  let url: string;
  try {
    const parsed = new URL(target.baseUrl.trim());
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
    url = modelsUrl(target.baseUrl, target.api);
  } catch {
    return { ok: false, error: 'invalid_url', detail: `"${target.baseUrl}" is not an http(s) URL. Use the API root, like http://127.0.0.1:11434/v1.` };
  }
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (target.api === 'anthropic') {
    headers['anthropic-version'] = '2023-06-01';
    if (target.apiKey) headers['x-api-key'] = target.apiKey;
  } else if (target.apiKey) {
    headers.Authorization = `Bearer ${target.apiKey}`;
  }
  let res;
  try {
    res = await guardedFetch(url, { headers, ...(target.timeoutMs ? { timeoutMs: target.timeoutMs } : {}) });
  } catch (err) {
    return failure(err, url);
  }
  if (res.status >= 400) {
    const kind = res.status >= 500 ? 'http_5xx' : 'http_4xx';
    const why =
      res.status === 401 || res.status === 403
        ? 'the API key was refused'
        : res.status === 404
          ? 'no model list there — is this the API root (often ending in /v1)?'
          : 'the server refused the request';
    return { ok: false, error: kind, status: res.status, detail: `${url} answered HTTP ${res.status}: ${why}` };
  }
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return {
      ok: false,
      error: 'parse',
      detail: `${url} answered, but not with JSON (${res.headers.get('content-type') ?? 'no content type'}) — is this the API root (often ending in /v1)?`,
    };
  }
  const models = parseModelList(body);
  if (!models) return { ok: false, error: 'parse', detail: `${url} answered JSON without a model list ("data" or "models")` };
  return { ok: true, base_url: target.baseUrl.trim().replace(/\/+$/, ''), models };
}

function failure(err: unknown, url: string): ProbeResult {
  if (err instanceof FetchGuardError) {
    if (err.reason === 'timeout') return { ok: false, error: 'timeout', detail: err.message };
    if (err.reason === 'too_large') return { ok: false, error: 'parse', detail: err.message };
    if (err.reason === 'redirect') return { ok: false, error: 'http_4xx', detail: `${err.message}. Use the final address as the base URL.` };
    const code = err.code ?? '';
    if (code === 'ECONNREFUSED') return { ok: false, error: 'connect_refused', detail: `Nothing is listening at ${url} (connection refused)` };
    if (/bad port/i.test(err.message))
      return {
        ok: false,
        error: 'invalid_url',
        detail: `${url} uses a port that web clients refuse to contact (the fetch standard's blocked ports); run the server on another port`,
      };
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME')
      return { ok: false, error: 'dns', detail: `The host in ${url} could not be found (DNS)` };
    return { ok: false, error: 'unreachable', detail: err.message };
  }
  if (err instanceof AppError) return { ok: false, error: 'invalid_url', detail: err.message };
  return { ok: false, error: 'unreachable', detail: `Could not reach ${url}: ${String((err as Error)?.message ?? err)}` };
}
