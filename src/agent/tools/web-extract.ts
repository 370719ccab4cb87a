import { json, toolError } from './args.js';
import type { Tool } from './types.js';
import { extractWith, type WebDocument } from './web/backends.js';
import { fetchReadable } from './web/local-extract.js';
import { EXTRACT_BACKENDS, resolveExtractBackend } from './web/settings.js';
import { thirdPartyBlockReason, urlBlockReason } from './web/url-policy.js';

/** Hermes reads at most five URLs per call. */
const MAX_URLS = 5;
/**
 * Per page. Hermes has an auxiliary model summarize pages past 5,000 characters; this runtime
 * returns the text itself, cut here so five pages stay within one file read's budget.
 */
export const MAX_PAGE_CHARS = 20_000;

const NOT_CONFIGURED_EXTRACT =
  'No web extract provider configured. Set web.extract_backend (or web.backend) in config.yaml to one of ' +
  `${EXTRACT_BACKENDS.join(', ')} (local fetches pages itself and needs no key).`;

function bounded(doc: WebDocument): { url: string; title: string; content: string; error: string | null } {
  let content = doc.content;
  if (content.length > MAX_PAGE_CHARS) {
    content = `${content.slice(0, MAX_PAGE_CHARS)}\n\n[… ${content.length - MAX_PAGE_CHARS} more characters not shown: web_extract returns at most ${MAX_PAGE_CHARS} characters per page]`;
  }
  return { url: doc.url, title: doc.title, content, error: doc.error || null };
}

export const webExtractTool: Tool = {
  spec: {
    name: 'web_extract',
    description:
      'Extract content from web page URLs. Returns each page as readable markdown text with its title. ' +
      `Pages longer than ${MAX_PAGE_CHARS} characters are cut. If a URL fails or times out, say so rather than guessing its content.`,
    parameters: {
      type: 'object',
      properties: {
        urls: {
          type: 'array',
          items: { type: 'string' },
          description: `List of URLs to extract content from (max ${MAX_URLS} URLs per call)`,
          maxItems: MAX_URLS,
        },
      },
      required: ['urls'],
    },
  },
  async run(args, ctx) {
    const raw = typeof args.urls === 'string' ? [args.urls] : Array.isArray(args.urls) ? args.urls : null;
    const urls = (raw ?? []).filter((u): u is string => typeof u === 'string' && u.trim() !== '').map((u) => u.trim());
    if (!urls.length) return toolError('urls is required: a list of up to 5 http(s) URLs');
    const web = ctx.web;
    const resolved = web ? resolveExtractBackend(web.config) : null;
    if (!web || !resolved?.backend) return json({ success: false, error: NOT_CONFIGURED_EXTRACT });
    const picked = urls.slice(0, MAX_URLS);
    const policy = { allowPrivate: web.config.allowPrivateUrls, ...(web.lookup ? { lookup: web.lookup } : {}) };

    let docs: WebDocument[];
    if (resolved.backend === 'local') {
      docs = await Promise.all(picked.map((u) => fetchReadable(u, policy, ctx.signal)));
    } else {
      // A hosted backend fetches from its own network, but a private URL is still not the model's to hand out.
      const checked = await Promise.all(picked.map(async (u) => ({ u, blocked: await blockedOrInvalid(u, policy) })));
      const allowed = checked.filter((c) => !c.blocked).map((c) => c.u);
      const fetched = allowed.length
        ? await extractWith(resolved.backend, web.config, allowed, { signal: ctx.signal, ...(web.endpoints ? { endpoints: web.endpoints } : {}) })
        : [];
      const byUrl = new Map(fetched.map((d) => [d.url, d]));
      docs = checked.map((c) =>
        c.blocked ? { url: c.u, title: '', content: '', error: c.blocked } : (byUrl.get(c.u) ?? fetched[allowed.indexOf(c.u)] ?? missing(c.u)),
      );
    }
    const result: Record<string, unknown> = { results: docs.map(bounded) };
    if (urls.length > MAX_URLS) result.note = `Only the first ${MAX_URLS} URLs were extracted; call again for the rest.`;
    return json(result);
  },
};

async function blockedOrInvalid(url: string, policy: Parameters<typeof urlBlockReason>[1]): Promise<string | null> {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return `Only http:// and https:// URLs can be extracted, not ${u.protocol}`;
    return thirdPartyBlockReason(u) ?? (await urlBlockReason(u, policy));
  } catch {
    return 'Invalid URL';
  }
}

function missing(url: string): WebDocument {
  return { url, title: '', content: '', error: 'extraction failed' };
}
