import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webExtractTool, webSearchTool } from '../../../src/agent/tools/index.js';
import type { ToolContext } from '../../../src/agent/tools/types.js';
import { MAX_PAGE_CHARS } from '../../../src/agent/tools/web-extract.js';
import { parseWebConfig, type WebConfig } from '../../../src/agent/tools/web/settings.js';
import { startScriptedWeb, type ScriptedWeb } from '../../fixtures/scripted-web.js';
import { fakeContext, parse, type Sandbox, sandbox } from './helpers.js';

let web: ScriptedWeb;
let box: Sandbox;
beforeAll(async () => {
  web = await startScriptedWeb();
});
afterAll(async () => web.close());
beforeEach(() => {
  box = sandbox();
  web.requests.length = 0;
});
afterEach(() => box.cleanup());

/** A tool context whose web settings come from a config.yaml object and `.env` values, like a turn's. */
function ctxWith(file: unknown, env: Record<string, string> = {}, endpoints?: Record<string, string>): ToolContext {
  const { ctx } = fakeContext(box);
  const config: WebConfig = parseWebConfig(file, env);
  ctx.web = { config, ...(endpoints ? { endpoints } : {}) };
  return ctx;
}

describe('web_search backends (scripted servers speaking each wire format)', () => {
  it('SearXNG: GET /search?format=json, sorted by score, five results, Hermes result shape', async () => {
    web.route('GET', '/search', {
      body: {
        query: 'lit',
        results: Array.from({ length: 8 }, (_, i) => ({ title: `R${i}`, url: `https://e.test/${i}`, content: `about ${i}`, score: i, engine: 'ddg' })),
      },
    });
    const ctx = ctxWith({ web: { searxng_url: `${web.url}/` } });
    const out = parse(await webSearchTool.run({ query: 'lit elements' }, ctx));
    expect(out.success).toBe(true);
    expect(out.data.web).toHaveLength(5);
    expect(out.data.web[0]).toEqual({ title: 'R7', url: 'https://e.test/7', description: 'about 7', position: 1 });
    const req = web.requests[0]!;
    expect(req.query.get('q')).toBe('lit elements');
    expect(req.query.get('format')).toBe('json');
    expect(req.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('SearXNG from SEARXNG_URL in .env, chosen by web.search_backend', async () => {
    web.route('GET', '/search', { body: { results: [{ title: 'A', url: 'https://a.test', content: 'a' }] } });
    const out = parse(await webSearchTool.run({ query: 'a' }, ctxWith({ web: { search_backend: 'searxng' } }, { SEARXNG_URL: web.url })));
    expect(out.data.web.map((h: any) => h.url)).toEqual(['https://a.test']);
  });

  it('Tavily: POST /search with the key in the body', async () => {
    web.route('POST', '/search', (req) => ({
      body:
        req.body.api_key === 'tvly-1'
          ? { query: req.body.query, results: [{ title: 'T', url: 'https://t.test', content: 'snippet', score: 0.9 }] }
          : { status: 401 },
    }));
    const ctx = ctxWith({ web: { backend: 'tavily' } }, { TAVILY_API_KEY: 'tvly-1' }, { tavily: web.url });
    const out = parse(await webSearchTool.run({ query: 'news' }, ctx));
    expect(out).toEqual({ success: true, data: { web: [{ title: 'T', url: 'https://t.test', description: 'snippet', position: 1 }] } });
    expect(web.requests[0]!.body).toMatchObject({ query: 'news', max_results: 5, api_key: 'tvly-1' });
  });

  it("Tavily's own TAVILY_BASE_URL override is honoured too", async () => {
    web.route('POST', '/search', { body: { results: [] } });
    const out = parse(await webSearchTool.run({ query: 'q' }, ctxWith({}, { TAVILY_API_KEY: 'k', TAVILY_BASE_URL: web.url })));
    expect(out).toEqual({ success: true, data: { web: [] } });
    expect(web.requests).toHaveLength(1);
  });

  it('Brave Search: GET /res/v1/web/search with X-Subscription-Token', async () => {
    web.route('GET', '/res/v1/web/search', (req) =>
      req.headers['x-subscription-token'] === 'bsa-1'
        ? { body: { type: 'search', web: { results: [{ title: 'B', url: 'https://b.test', description: 'brave hit' }] } } }
        : { status: 401, body: { error: 'bad token' } },
    );
    const ctx = ctxWith({ web: { search_backend: 'brave-free' } }, { BRAVE_SEARCH_API_KEY: 'bsa-1' }, { 'brave-free': web.url });
    const out = parse(await webSearchTool.run({ query: 'brave' }, ctx));
    expect(out.data.web).toEqual([{ title: 'B', url: 'https://b.test', description: 'brave hit', position: 1 }]);
    expect(web.requests[0]!.query.get('count')).toBe('5');
  });

  it('Exa: POST /search with x-api-key, highlights become the description', async () => {
    web.route('POST', '/search', (req) => ({
      body: req.headers['x-api-key'] === 'exa-1' ? { results: [{ title: 'E', url: 'https://e.test', highlights: ['one', 'two'] }] } : {},
    }));
    const ctx = ctxWith({ web: { backend: 'exa' } }, { EXA_API_KEY: 'exa-1' }, { exa: web.url });
    const out = parse(await webSearchTool.run({ query: 'semantic' }, ctx));
    expect(out.data.web).toEqual([{ title: 'E', url: 'https://e.test', description: 'one two', position: 1 }]);
    expect(web.requests[0]!.body).toEqual({ query: 'semantic', numResults: 5, contents: { highlights: true } });
  });

  it('Firecrawl: POST /v2/search with a Bearer key (self-hosted FIRECRAWL_API_URL)', async () => {
    web.route('POST', '/v2/search', (req) => ({
      body:
        req.headers.authorization === 'Bearer fc-1'
          ? { success: true, data: { web: [{ title: 'F', url: 'https://f.test', description: 'crawl' }] } }
          : { success: false },
    }));
    const out = parse(await webSearchTool.run({ query: 'q' }, ctxWith({}, { FIRECRAWL_API_KEY: 'fc-1', FIRECRAWL_API_URL: web.url })));
    expect(out.data.web).toEqual([{ title: 'F', url: 'https://f.test', description: 'crawl', position: 1 }]);
  });

  it('a backend failure comes back as {success:false, error}', async () => {
    web.route('POST', '/search', { status: 401, body: { detail: 'Unauthorized: missing or invalid API key.' } });
    const ctx = ctxWith({ web: { backend: 'tavily' } }, { TAVILY_API_KEY: 'bad' }, { tavily: web.url });
    expect(parse(await webSearchTool.run({ query: 'q' }, ctx))).toEqual({
      success: false,
      error: 'Tavily search failed: HTTP 401: Unauthorized: missing or invalid API key.',
    });
  });
});

describe('web_search when nothing is configured', () => {
  it('says so clearly, names the missing key for a configured backend, and refuses unknown ones', async () => {
    const none = parse(await webSearchTool.run({ query: 'q' }, ctxWith({})));
    expect(none.success).toBe(false);
    expect(none.error).toMatch(/^No web search provider configured\. .*web\.searxng_url/);
    const keyless = parse(await webSearchTool.run({ query: 'q' }, ctxWith({ web: { backend: 'tavily' } })));
    expect(keyless).toEqual({ success: false, error: 'TAVILY_API_KEY environment variable not set. Get your API key at https://app.tavily.com/home' });
    const unknown = parse(await webSearchTool.run({ query: 'q' }, ctxWith({ web: { search_backend: 'parallel' } })));
    expect(unknown.error).toMatch(/^Web search backend 'parallel' is not available in this runtime/);
    expect(parse(await webSearchTool.run({}, ctxWith({}))).error).toBe('query is required');
    expect(web.requests).toHaveLength(0);
  });
});

const PAGE = `<!doctype html><html><head><title>Guide &amp; Notes</title><style>body{color:red}</style>
<script>window.secret = "tracking";</script></head><body>
<nav><a href="/home">Home</a> | <a href="/about">About</a></nav>
<main><h1>Getting started</h1><p>Install with <code>npm i</code> and read the <a href="/docs/intro">intro</a>.</p>
<ul><li>First step</li><li>Second &mdash; step</li></ul>
<pre>const x = 1;
const y = 2;</pre></main><footer>© footer</footer></body></html>`;

describe('web_extract with the built-in fetcher (local)', () => {
  const local = { web: { extract_backend: 'local' }, security: { allow_private_urls: true } };

  it('turns a local HTML page into readable markdown: title, headings, links made absolute, lists, code', async () => {
    web.route('GET', '/guide', { headers: { 'content-type': 'text/html; charset=utf-8' }, body: PAGE });
    const out = parse(await webExtractTool.run({ urls: [`${web.url}/guide`] }, ctxWith(local)));
    expect(out.results).toHaveLength(1);
    const doc = out.results[0];
    expect(doc).toMatchObject({ url: `${web.url}/guide`, title: 'Guide & Notes', error: null });
    expect(doc.content).toContain('# Getting started');
    expect(doc.content).toContain(`[intro](${web.url}/docs/intro)`);
    expect(doc.content).toContain('- First step');
    expect(doc.content).toContain('- Second — step');
    expect(doc.content).toContain('```\nconst x = 1;\nconst y = 2;\n```');
    expect(doc.content).toContain('`npm i`');
    for (const gone of ['tracking', 'color:red', 'Home', '© footer']) expect(doc.content).not.toContain(gone);
  });

  it('cuts long pages, follows redirects, returns text as is and reports failures per URL', async () => {
    web.route('GET', '/long', { headers: { 'content-type': 'text/html' }, body: `<p>${'word '.repeat(10_000)}</p>` });
    web.route('GET', '/moved', { status: 301, headers: { location: '/plain' } });
    web.route('GET', '/plain', { body: 'just text' });
    web.route('GET', '/missing', { status: 404, body: 'nope' });
    web.route('GET', '/paper.pdf', { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.7' });
    const urls = ['/long', '/moved', '/missing', '/paper.pdf'].map((p) => web.url + p);
    const out = parse(await webExtractTool.run({ urls }, ctxWith(local)));
    const [long, moved, missing, pdf] = out.results;
    expect(long.content.length).toBeLessThan(MAX_PAGE_CHARS + 200);
    expect(long.content).toMatch(/more characters not shown: web_extract returns at most 20000 characters per page\]$/);
    expect(moved).toEqual({ url: `${web.url}/plain`, title: '', content: 'just text', error: null });
    expect(missing.error).toBe('Local extraction failed: HTTP 404');
    expect(pdf.error).toMatch(/does not handle PDFs/);
  });

  it('refuses more than a bounded body', async () => {
    web.route('GET', '/huge', { headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(2 * 1024 * 1024 + 10) });
    const out = parse(await webExtractTool.run({ urls: [`${web.url}/huge`] }, ctxWith(local)));
    expect(out.results[0].error).toMatch(/^Local extraction failed: The response from .* was larger than 2 MB$/);
  });

  it('refuses private addresses unless security.allow_private_urls, and cloud metadata always (also after a redirect)', async () => {
    web.route('GET', '/page', { body: 'hello' });
    web.route('GET', '/to-metadata', { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } });
    const strict = ctxWith({ web: { extract_backend: 'local' } });
    const blocked = parse(await webExtractTool.run({ urls: [`${web.url}/page`, 'http://localhost:9/x', 'http://[::1]/x', 'http://10.1.2.3/'] }, strict));
    expect(blocked.results.map((r: any) => r.error)).toEqual(Array(4).fill('Blocked: URL targets a private or internal network address'));
    const open = ctxWith(local);
    const meta = parse(
      await webExtractTool.run({ urls: ['http://169.254.169.254/latest/', 'http://metadata.google.internal/', `${web.url}/to-metadata`] }, open),
    );
    expect(meta.results.map((r: any) => r.error)).toEqual(Array(3).fill('Blocked: URL targets a private or internal network address'));
    // Only the redirecting page itself was fetched; the metadata address never was.
    expect(web.requests.map((r) => r.path)).toEqual(['/to-metadata']);
  });

  it('judges host names by the addresses they resolve to', async () => {
    const { ctx } = fakeContext(box);
    ctx.web = { config: parseWebConfig({ web: { extract_backend: 'local' } }, {}), lookup: async () => ['192.168.1.20'] };
    const out = parse(await webExtractTool.run({ urls: ['https://intranet.example.com/'] }, ctx));
    expect(out.results[0].error).toBe('Blocked: URL targets a private or internal network address');
  });

  it('takes at most five URLs and validates its argument', async () => {
    web.route('GET', '/p', { body: 'p' });
    const out = parse(await webExtractTool.run({ urls: Array(7).fill(`${web.url}/p`) }, ctxWith(local)));
    expect(out.results).toHaveLength(5);
    expect(out.note).toMatch(/first 5 URLs/);
    expect(parse(await webExtractTool.run({ urls: [] }, ctxWith(local))).error).toMatch(/urls is required/);
    expect(parse(await webExtractTool.run({ urls: ['ftp://x.test/a'] }, ctxWith(local))).results[0].error).toMatch(/Only http/);
  });
});

describe('web_extract through hosted backends', () => {
  it('Tavily: POST /extract, failed_results become per-URL errors', async () => {
    web.route('POST', '/extract', (req) => ({
      body: {
        results: [{ url: req.body.urls[0], raw_content: '# Page one' }],
        failed_results: [{ url: req.body.urls[1], error: 'timeout' }],
      },
    }));
    const ctx = ctxWith({ web: { backend: 'tavily' } }, { TAVILY_API_KEY: 'k' }, { tavily: web.url });
    const out = parse(await webExtractTool.run({ urls: ['https://one.test/', 'https://two.test/'] }, ctx));
    expect(out.results).toEqual([
      { url: 'https://one.test/', title: '', content: '# Page one', error: null },
      { url: 'https://two.test/', title: '', content: '', error: 'timeout' },
    ]);
    expect(web.requests[0]!.body).toEqual({ urls: ['https://one.test/', 'https://two.test/'], include_images: false, api_key: 'k' });
  });

  it('Firecrawl: POST /v2/scrape per URL for markdown', async () => {
    web.route('POST', '/v2/scrape', (req) => ({
      body: { success: true, data: { markdown: `md of ${req.body.url}`, metadata: { title: 'T', sourceURL: req.body.url } } },
    }));
    const ctx = ctxWith({ web: { extract_backend: 'firecrawl' } }, { FIRECRAWL_API_KEY: 'fc' }, { firecrawl: web.url });
    const out = parse(await webExtractTool.run({ urls: ['https://a.test/'] }, ctx));
    expect(out.results).toEqual([{ url: 'https://a.test/', title: 'T', content: 'md of https://a.test/', error: null }]);
    expect(web.requests[0]!.body).toEqual({ url: 'https://a.test/', formats: ['markdown'] });
  });

  it('a private or credential-bearing URL is not handed to a hosted backend', async () => {
    const ctx = ctxWith({ web: { backend: 'exa' } }, { EXA_API_KEY: 'k' }, { exa: web.url });
    const out = parse(await webExtractTool.run({ urls: ['http://192.168.0.1/admin', 'https://s3.test/f?X-Amz-Signature=abc', 'https://u:p@a.test/'] }, ctx));
    expect(out.results.map((r: any) => r.error)).toEqual([
      'Blocked: URL targets a private or internal network address',
      'Blocked: URL contains a credential-like query parameter (X-Amz-Signature). Hosted extract backends are third-party readers; remove the parameter or use web.extract_backend: local.',
      'Blocked: credential-bearing URL',
    ]);
    expect(web.requests).toHaveLength(0);
  });

  it('says when no extract backend is configured', async () => {
    const out = parse(await webExtractTool.run({ urls: ['https://a.test/'] }, ctxWith({})));
    expect(out.success).toBe(false);
    expect(out.error).toMatch(/^No web extract provider configured/);
  });
});
