import { FetchGuardError, type GuardedResponse, guardedFetch } from '../../../http/guarded-fetch.js';
import type { WebDocument } from './backends.js';
import { htmlTitle, htmlToText } from './html-text.js';
import { type UrlPolicy, urlBlockReason } from './url-policy.js';

/**
 * web_extract's built-in fetcher (`web.extract_backend: local`, and the fallback when only a
 * search backend is configured): GET the page, follow up to five redirects — each hop judged by
 * the URL policy again, so a public page cannot bounce the fetch into the private network — and
 * turn HTML into readable text. Bounded: 2 MB per page, 30 s per hop.
 */

const MAX_PAGE_BYTES = 2 * 1024 * 1024;
const TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;
const HEADERS = {
  'user-agent': 'HermesWebUI web_extract (+https://github.com/nesquena/hermes-webui)',
  accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
};

export async function fetchReadable(rawUrl: string, policy: UrlPolicy, signal: AbortSignal): Promise<WebDocument> {
  let url: URL;
  try {
    url = new URL(rawUrl.trim());
  } catch {
    return { url: rawUrl, title: '', content: '', error: 'Invalid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { url: rawUrl, title: '', content: '', error: `Only http:// and https:// URLs can be extracted, not ${url.protocol}` };
  for (let hop = 0; ; hop++) {
    const blocked = await urlBlockReason(url, policy);
    if (blocked) return { url: url.toString(), title: '', content: '', error: blocked };
    let res: GuardedResponse;
    try {
      res = await guardedFetch(url.toString(), { headers: HEADERS, signal, timeoutMs: TIMEOUT_MS, maxBytes: MAX_PAGE_BYTES });
    } catch (err) {
      if (signal.aborted) throw err;
      if (err instanceof FetchGuardError && err.reason === 'redirect' && err.location && hop < MAX_REDIRECTS) {
        url = new URL(err.location);
        continue;
      }
      return { url: url.toString(), title: '', content: '', error: `Local extraction failed: ${(err as Error).message}` };
    }
    if (res.status < 200 || res.status >= 300) return { url: url.toString(), title: '', content: '', error: `Local extraction failed: HTTP ${res.status}` };
    const type = (res.headers.get('content-type') ?? '').toLowerCase();
    if (type.includes('pdf')) {
      return {
        url: url.toString(),
        title: '',
        content: '',
        error: 'Local extractor does not handle PDFs; configure Firecrawl, Tavily or Exa (web.extract_backend) for PDF extraction.',
      };
    }
    const body = res.text();
    if (type.includes('html') || (!type && /^\s*<(!doctype html|html)/i.test(body))) {
      return { url: url.toString(), title: htmlTitle(body), content: htmlToText(body, url.toString()) };
    }
    if (type.startsWith('text/') || type.includes('json') || type.includes('xml') || !type) return { url: url.toString(), title: '', content: body };
    return { url: url.toString(), title: '', content: '', error: `Local extraction failed: unsupported content type ${type.split(';')[0]}` };
  }
}
