import { expect, fixture, cleanup } from '../helpers.js';
import type { ToolView } from '../../../components/state/turns.js';
import type { HermesToolCard } from '../../../components/chat/hermes-tool-card.js';
import '../../../components/chat/hermes-tool-card.js';

const view = (over: Partial<ToolView>): ToolView => ({ id: 't1', name: 'web_search', preview: 'lit', args: { query: 'lit' }, status: 'done', ...over });

describe('web tool results in a tool card', () => {
  afterEach(cleanup);
  const open = (tool: ToolView) => fixture<HermesToolCard>('hermes-tool-card', { tool, open: true });

  it('lists web_search results as links with their address and description', async () => {
    const result = JSON.stringify({
      success: true,
      data: {
        web: [
          { title: 'Lit docs', url: 'https://lit.dev/docs', description: 'Simple. Fast. Web Components.', position: 1 },
          { title: 'Odd', url: 'javascript:alert(1)', description: '', position: 2 },
        ],
      },
    });
    const el = await open(view({ result }));
    const items = el.shadowRoot!.querySelectorAll('[data-role="web-results"] li');
    expect(items.length).to.equal(2);
    const a = items[0]!.querySelector('a')!;
    expect(a.getAttribute('href')).to.equal('https://lit.dev/docs');
    expect(a.getAttribute('rel')).to.equal('noopener noreferrer');
    expect(a.textContent).to.equal('Lit docs');
    expect(items[0]!.textContent).to.contain('Simple. Fast. Web Components.');
    // Only http(s) addresses become links.
    expect(items[1]!.querySelector('a')).to.equal(null);
    expect(el.shadowRoot!.querySelector('[data-role="tool-result"]')).to.equal(null);
  });

  it('shows extracted pages with title, link and text, and per-page errors', async () => {
    const result = JSON.stringify({
      results: [
        { url: 'https://a.test/', title: 'Page A', content: '# Heading\n\nBody text', error: null },
        { url: 'https://b.test/', title: '', content: '', error: 'Blocked: URL targets a private or internal network address' },
      ],
    });
    const el = await open(view({ name: 'web_extract', args: { urls: ['https://a.test/'] }, result }));
    const pages = el.shadowRoot!.querySelectorAll('[data-role="web-pages"] section');
    expect(pages.length).to.equal(2);
    expect(pages[0]!.querySelector('a')!.textContent).to.equal('Page A');
    expect(pages[0]!.querySelector('pre')!.textContent).to.equal('# Heading\n\nBody text');
    expect(pages[1]!.textContent).to.contain('Blocked: URL targets a private');
  });

  it('shows a failure message, and falls back to the raw text for a result cut short', async () => {
    const failed = await open(view({ result: JSON.stringify({ success: false, error: 'No web search provider configured.' }) }));
    expect(failed.shadowRoot!.querySelector('[data-role="web-error"]')!.textContent).to.equal('No web search provider configured.');
    const cut = '{"results": [{"url": "https://a.test/", "content": "long…';
    const raw = await open(view({ name: 'web_extract', result: cut }));
    expect(raw.shadowRoot!.querySelector('[data-role="tool-result"]')!.textContent).to.equal(cut);
  });
});
