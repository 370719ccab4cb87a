import { describe, expect, it } from 'vitest';
import { parseAgentConfig } from '../../../src/agent/config.js';
import { addressClass, urlBlockReason } from '../../../src/agent/tools/web/url-policy.js';
import { parseWebConfig, resolveExtractBackend, resolveSearchBackend, webToolsEnabled } from '../../../src/agent/tools/web/settings.js';

describe('web backend resolution (Hermes web_search_registry order)', () => {
  const cases: Array<[string, unknown, Record<string, string>, string | null, string | null, boolean]> = [
    // label, config.yaml, env, search backend, extract backend, tools offered
    ['nothing configured', {}, {}, null, null, false],
    ['web.searxng_url alone', { web: { searxng_url: 'http://sx:8080' } }, {}, 'searxng', 'local', true],
    ['SEARXNG_URL in .env', {}, { SEARXNG_URL: 'http://sx' }, 'searxng', 'local', true],
    ['a key alone picks its backend', {}, { TAVILY_API_KEY: 'k' }, 'tavily', 'tavily', true],
    ['legacy order: firecrawl before tavily', {}, { TAVILY_API_KEY: 'k', FIRECRAWL_API_KEY: 'f' }, 'firecrawl', 'firecrawl', true],
    ['a keyed hosted backend wins over a SearXNG URL when nothing is chosen', { web: { searxng_url: 'http://sx' } }, { EXA_API_KEY: 'e' }, 'exa', 'exa', true],
    ['explicit backend wins without its key', { web: { backend: 'exa' } }, { TAVILY_API_KEY: 'k' }, 'exa', 'exa', true],
    ['per-capability over the shared key', { web: { backend: 'tavily', search_backend: 'brave-free' } }, {}, 'brave-free', 'tavily', true],
    ['search-only backend leaves extract to local', { web: { backend: 'searxng', searxng_url: 'http://sx' } }, {}, 'searxng', 'local', true],
    ['an unknown backend is offered and explains itself', { web: { backend: 'parallel' } }, {}, null, 'local', true],
    ['names are case-insensitive', { web: { search_backend: 'SearXNG', searxng_url: 'http://sx' } }, {}, 'searxng', 'local', true],
  ];
  it.each(cases)('%s', (_label, file, env, search, extract, enabled) => {
    const c = parseWebConfig(file, env);
    expect(resolveSearchBackend(c).backend).toBe(search);
    expect(resolveExtractBackend(c).backend).toBe(extract);
    expect(webToolsEnabled(c)).toBe(enabled);
  });

  it('reads the private-URL switch as Hermes does: env first, then security., then legacy browser.', () => {
    expect(parseWebConfig({}, {}).allowPrivateUrls).toBe(false);
    expect(parseWebConfig({ security: { allow_private_urls: true } }, {}).allowPrivateUrls).toBe(true);
    expect(parseWebConfig({ browser: { allow_private_urls: 'yes' } }, {}).allowPrivateUrls).toBe(true);
    expect(parseWebConfig({ security: { allow_private_urls: true } }, { HERMES_ALLOW_PRIVATE_URLS: 'false' }).allowPrivateUrls).toBe(false);
    expect(parseWebConfig({}, { HERMES_ALLOW_PRIVATE_URLS: '1' }).allowPrivateUrls).toBe(true);
  });

  it('comes from config.yaml and .env through parseAgentConfig, and a malformed web: section is ignored', () => {
    const c = parseAgentConfig({ configYaml: 'web:\n  backend: tavily\n  searxng_url: ${SX}\n', dotenv: 'TAVILY_API_KEY=tvly-1\nSX=http://sx:1\n', env: {} });
    expect(c.web).toMatchObject({ backend: 'tavily', searxngUrl: 'http://sx:1', keys: { tavily: 'tvly-1' } });
    const bad = parseAgentConfig({ configYaml: 'web: [1, 2]\nsecurity: nope\n', dotenv: null, env: {} });
    expect(bad.web).toMatchObject({ backend: null, searchBackend: null, allowPrivateUrls: false });
  });
});

describe('web_extract URL policy (Hermes url_safety)', () => {
  const table: Array<[string, 'metadata' | 'private' | null]> = [
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['127.0.0.1', 'private'],
    ['10.0.0.8', 'private'],
    ['172.16.4.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['224.0.0.1', 'private'],
    ['::1', 'private'],
    ['::', 'private'],
    ['fe80::1', 'private'],
    ['fc00::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['8.8.8.8', null],
    ['172.32.0.1', null],
    ['2606:4700::1111', null],
    ['93.184.216.34', null],
  ];
  it.each(table)('%s is %s', (address, cls) => {
    expect(addressClass(address)).toBe(cls);
  });

  it('judges names: metadata names always, localhost unless allowed, others by their addresses', async () => {
    const strict = { allowPrivate: false };
    const open = { allowPrivate: true };
    expect(await urlBlockReason(new URL('http://metadata.google.internal/'), open)).toMatch(/^Blocked/);
    expect(await urlBlockReason(new URL('http://localhost:3000/'), strict)).toMatch(/^Blocked/);
    expect(await urlBlockReason(new URL('http://localhost:3000/'), open)).toBeNull();
    expect(await urlBlockReason(new URL('https://example.com/'), strict)).toBeNull();
    expect(await urlBlockReason(new URL('https://example.com/'), { allowPrivate: false, lookup: async () => ['93.184.216.34', '10.0.0.1'] })).toMatch(
      /^Blocked/,
    );
    expect(await urlBlockReason(new URL('https://rebind.test/'), { allowPrivate: true, lookup: async () => ['169.254.169.254'] })).toMatch(/^Blocked/);
    expect(
      await urlBlockReason(new URL('https://nx.test/'), {
        allowPrivate: false,
        lookup: async () => {
          throw new Error('ENOTFOUND');
        },
      }),
    ).toBe('Could not resolve host: nx.test');
  });
});
