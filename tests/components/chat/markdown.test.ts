import { expect, fixture, cleanup } from '../helpers.js';
import * as math from '../../../components/render/math.js';
import { extractMath } from '../../../components/render/math.js';
import { renderMarkdown } from '../../../components/render/markdown.js';
import type { HermesMarkdown } from '../../../components/chat/hermes-markdown.js';
import '../../../components/chat/hermes-markdown.js';

const md = (text: string, streaming = false) => fixture<HermesMarkdown>('hermes-markdown', { text, streaming });
const prose = (el: HermesMarkdown) => el.shadowRoot!.querySelector('.prose')!;

describe('hermes-markdown', () => {
  afterEach(cleanup);

  // First in this file: nothing before it has needed math.
  it('does not load KaTeX for text without math', async () => {
    const el = await md('Plain **bold** text, `$HOME` in code, and prices like $5 and $10.\n\n```sh\necho $PATH $x$\n```');
    expect(prose(el).querySelector('strong')?.textContent).to.equal('bold');
    expect(prose(el).textContent).to.contain('$5 and $10');
    expect(math.katexLoaded).to.equal(false);
  });

  describe('sanitising', () => {
    const XSS = [
      '<img src=x onerror=alert(1)>',
      '[click](javascript:alert(1))',
      '<script>alert(1)</script>',
      '<a href="javascript:alert(1)">a</a>',
      '<svg><script>alert(1)</script></svg>',
      '<div onclick="alert(1)" onmouseover="alert(1)">hover</div>',
      '<iframe src="javascript:alert(1)"></iframe>',
      '[x](JaVaScRiPt:alert(1))',
      '<a href="  javascript:alert(1)">spaced</a>',
    ];
    for (const attack of XSS) {
      it(`neutralises ${attack}`, async () => {
        const el = await md(`before\n\n${attack}\n\nafter`);
        const root = prose(el);
        expect(root.querySelector('script, iframe')).to.equal(null);
        for (const node of root.querySelectorAll('*')) {
          for (const attr of node.getAttributeNames()) expect(attr.startsWith('on'), `${node.tagName} has ${attr}`).to.equal(false);
          const href = node.getAttribute('href') ?? node.getAttribute('src') ?? '';
          expect(/^\s*javascript:/i.test(href), `${node.tagName} links to ${href}`).to.equal(false);
        }
        expect(root.textContent).to.contain('after');
      });
    }

    it('keeps ordinary links, opening them in a new tab', async () => {
      const el = await md('[docs](https://example.com/a)');
      const a = prose(el).querySelector('a')!;
      expect(a.getAttribute('href')).to.equal('https://example.com/a');
      expect(a.getAttribute('target')).to.equal('_blank');
      expect(a.getAttribute('rel')).to.contain('noopener');
    });
  });

  it('renders GFM tables', async () => {
    const el = await md('| a | b |\n|---|--:|\n| 1 | 2 |\n| 3 | 4 |');
    const table = prose(el).querySelector('table')!;
    expect(table).to.exist;
    expect(table.querySelectorAll('th').length).to.equal(2);
    expect(table.querySelectorAll('tbody tr').length).to.equal(2);
  });

  it('labels code blocks with their language and adds a copy button', async () => {
    const el = await md('```python\nprint("hi")\n```\n\nand `inline` code');
    const block = prose(el).querySelector('[data-role="code-block"]')!;
    expect(block.querySelector('[data-role="code-lang"]')!.textContent).to.equal('python');
    expect(block.querySelector('button[data-role="copy-code"]')).to.exist;
    expect(block.querySelector('pre code')!.textContent).to.equal('print("hi")');
    expect(prose(el).querySelector(':not(pre) > code')!.textContent).to.equal('inline');
  });

  it('highlights a known language once its grammar has loaded', async () => {
    // The test server resolves highlight.js's "import" export (its ES build), so it always loads here.
    const el = await md('```js\nconst answer = 42; // the answer\n```');
    const code = prose(el).querySelector('pre code')!;
    expect(code.textContent).to.equal('const answer = 42; // the answer');
    expect(code.querySelector('.hljs-keyword')?.textContent).to.equal('const');
    expect(code.querySelector('.hljs-number')?.textContent).to.equal('42');
  });

  it('leaves code in an unknown language plain', async () => {
    const el = await md('```brainfuck\n+++.\n```');
    expect(prose(el).querySelector('pre code')!.children.length).to.equal(0);
    expect(prose(el).querySelector('[data-role="code-lang"]')!.textContent).to.equal('brainfuck');
  });

  it('protects math from markdown and renders it with KaTeX', async () => {
    const el = await md('Inline $a_1 * b_2 * c_3$ and \\(x_i\\), display:\n\n$$\\sum_{i=1}^n i^2$$\n\n\\[E = mc^2\\]');
    expect(math.katexLoaded).to.equal(true);
    const rendered = prose(el).querySelectorAll('.katex');
    expect(rendered.length).to.equal(4);
    expect(prose(el).querySelectorAll('.katex-display').length).to.equal(2);
    // marked would have turned "_1 * b_" into emphasis had the math not been lifted out.
    expect(prose(el).querySelector('em')).to.equal(null);
  });

  it('keeps math-like text inside code as written', () => {
    const { spans } = extractMath('`$a$` and\n\n```\n$$x$$\n```\n\nbut $y$');
    expect(spans.map((s) => s.tex)).to.deep.equal(['y']);
  });

  it('caches settled text and reuses the parse', () => {
    const text = 'cached *once*';
    expect(renderMarkdown(text)).to.equal(renderMarkdown(text));
  });

  it('renders streaming text and parses the settled text when streaming ends', async () => {
    const el = await md('Hel', true);
    expect(prose(el).textContent).to.contain('Hel');
    el.text = 'Hello wor';
    await el.updateComplete;
    el.text = 'Hello world, **done**';
    el.streaming = false;
    await el.updateComplete;
    expect(prose(el).querySelector('strong')?.textContent).to.equal('done');
  });
});
