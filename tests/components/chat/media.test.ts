import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import { classifyRef, holdOpenMediaTail, matchMediaTag } from '../../../components/render/media-refs.js';
import { parseCsv } from '../../../components/render/csv.js';
import { renderMarkdown } from '../../../components/render/markdown.js';
import { CSV_PREVIEW_ROWS, type HermesMedia } from '../../../components/chat/hermes-media.js';
import { configureApi } from '../../../components/api/client.js';
import '../../../components/chat/hermes-media.js';

describe('MEDIA: tags', () => {
  const path = (s: string) => matchMediaTag(s)?.path ?? null;

  it("reads Hermes' shapes: bare, spaced, quoted, backticked, with trailing punctuation", () => {
    expect(path('MEDIA:/tmp/a.png')).to.equal('/tmp/a.png');
    expect(path('MEDIA: /tmp/chart.png and more')).to.equal('/tmp/chart.png');
    expect(path('MEDIA:/home/ada/My Pictures/cat photo.jpeg here')).to.equal('/home/ada/My Pictures/cat photo.jpeg');
    expect(path('MEDIA:"/tmp/two words.mp3"')).to.equal('/tmp/two words.mp3');
    expect(path("MEDIA:'/tmp/single.ogg'")).to.equal('/tmp/single.ogg');
    expect(path('MEDIA:`/tmp/tick.wav`')).to.equal('/tmp/tick.wav');
    expect(path('MEDIA:/tmp/end.png.')).to.equal('/tmp/end.png');
    expect(path('MEDIA:/tmp/x.pdf)')).to.equal('/tmp/x.pdf');
    expect(path('MEDIA:out/report.csv,')).to.equal('out/report.csv');
    expect(path('MEDIA:~/cache/audio/tts_1.mp3')).to.equal('~/cache/audio/tts_1.mp3');
    expect(path('MEDIA:/tmp/noext')).to.equal('/tmp/noext');
    expect(path('MEDIA:')).to.equal(null);
    expect(path('not MEDIA:/x.png')).to.equal(null);
  });

  it('holds back a tag on the last line while it streams', () => {
    expect(holdOpenMediaTail('Here it is:\nMEDIA:/tmp/ch')).to.equal('Here it is:\n');
    expect(holdOpenMediaTail('MEDIA:/tmp/chart.png\nmore')).to.equal('MEDIA:/tmp/chart.png\nmore');
    expect(holdOpenMediaTail('no tag')).to.equal('no tag');
  });

  it('classifies targets: local paths, file:// URLs, data images; never other schemes', () => {
    expect(classifyRef('out/a.png')).to.deep.equal({ kind: 'local', path: 'out/a.png' });
    expect(classifyRef('file:///tmp/a%20b.png')).to.deep.equal({ kind: 'local', path: '/tmp/a b.png' });
    expect(classifyRef('https://x.test/a.png')).to.deep.equal({ kind: 'remote', href: 'https://x.test/a.png' });
    expect(classifyRef('data:image/png;base64,iVBORw0KGgo=')?.kind).to.equal('data');
    expect(classifyRef('data:text/html;base64,PHNjcmlwdD4=')).to.equal(null);
    expect(classifyRef('javascript:alert(1)')).to.equal(null);
    expect(classifyRef('#top')).to.equal(null);
  });
});

describe('parseCsv', () => {
  it('quotes, doubled quotes, CRLF, tabs', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\r\n', { maxRows: 10 }).rows).to.deep.equal([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
    ]);
    expect(parseCsv('a\tb\n1\t2', { maxRows: 10 }).rows).to.deep.equal([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(parseCsv('"multi\nline",2\n', { maxRows: 10 }).rows).to.deep.equal([['multi\nline', '2']]);
  });

  it('stops at maxRows and drops a row cut off by a partial fetch', () => {
    const text = Array.from({ length: 100 }, (_, i) => `${i},v${i}`).join('\n');
    const first = parseCsv(text, { maxRows: 5 });
    expect(first.rows.length).to.equal(5);
    expect(first.more).to.equal(true);
    const cut = parseCsv('a,b\n1,2\n3,4', { maxRows: 10, truncated: true });
    expect(cut.rows).to.deep.equal([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(cut.more).to.equal(true);
    expect(parseCsv('a,b\n1,2', { maxRows: 10 }).more).to.equal(false);
  });
});

describe('markdown with media', () => {
  const frag = (text: string, cache = true) => {
    const t = document.createElement('template');
    t.innerHTML = renderMarkdown(text, { cache }).html;
    return t.content;
  };

  it('turns a MEDIA: line into <hermes-media>, but not inside code', () => {
    const f = frag('Here is the chart:\n\nMEDIA:/ws/chart.png\n\n`MEDIA:/ws/literal.png`\n\n```\nMEDIA:/ws/block.png\n```');
    const els = [...f.querySelectorAll('hermes-media')];
    expect(els.map((e) => e.getAttribute('data-path'))).to.deep.equal(['/ws/chart.png']);
    expect(f.textContent).to.contain('MEDIA:/ws/literal.png');
    expect(f.textContent).to.contain('MEDIA:/ws/block.png');
  });

  it('images and links to local media files render inline; other links stay links', () => {
    const f = frag('![the chart](out/chart%20v2.png) [song](audio/a.mp3) [notes](notes.md) [site](https://x.test/a.png)');
    const els = [...f.querySelectorAll('hermes-media')];
    expect(els.map((e) => [e.getAttribute('data-path'), e.getAttribute('data-alt')])).to.deep.equal([
      ['out/chart v2.png', 'the chart'],
      ['audio/a.mp3', 'song'],
    ]);
    expect([...f.querySelectorAll('a')].map((a) => a.getAttribute('href'))).to.deep.equal(['notes.md', 'https://x.test/a.png']);
  });

  it('a streaming render waits for the tag line to end', () => {
    expect(frag('Look:\nMEDIA:/ws/cha', false).querySelector('hermes-media')).to.equal(null);
    expect(frag('Look:\nMEDIA:/ws/chart.png\n', false).querySelector('hermes-media')?.getAttribute('data-path')).to.equal('/ws/chart.png');
  });

  it('keeps the element through sanitising but not a script in its attributes', () => {
    const f = frag('<hermes-media data-path="a.png" onclick="alert(1)"></hermes-media>');
    const el = f.querySelector('hermes-media')!;
    expect(el.getAttribute('data-path')).to.equal('a.png');
    expect(el.hasAttribute('onclick')).to.equal(false);
  });
});

describe('hermes-media', () => {
  afterEach(cleanup);
  const media = (path: string) => fixture<HermesMedia>('hermes-media', { path, session: 'sess1' });
  const q = (url: string | null) => Object.fromEntries(new URL(url!, location.href).searchParams);

  it('an image in a fixed-height frame, opening full size in a new tab', async () => {
    // The test server answers `<base>/api/media` with a 4×3 PNG whatever the query.
    configureApi({ base: '/tests/components/chat/media-fixture' });
    document.documentElement.style.setProperty('--hermes-space-xl', '24px');
    let el: HermesMedia;
    try {
      el = await media('/ws/chart.png');
    } finally {
      configureApi({ base: '' });
    }
    expect(el.dataset.role).to.equal('media');
    const img = el.shadowRoot!.querySelector<HTMLImageElement>('[data-role="media-image"]')!;
    expect(q(img.getAttribute('src'))).to.deep.equal({ path: '/ws/chart.png', session_id: 'sess1' });
    expect(new URL(img.src).pathname).to.equal('/tests/components/chat/media-fixture/api/media');
    expect(img.loading).to.equal('lazy');
    await waitFor(() => img.complete && img.naturalWidth > 0);
    expect([img.naturalWidth, img.naturalHeight]).to.deep.equal([4, 3]);
    // The frame was 240 px tall before the bytes arrived and stays so (no jump on load).
    expect(getComputedStyle(img).height).to.equal('240px');
    // A later copy of the same image (a re-render) knows its size: a small one is drawn at it at once.
    configureApi({ base: '/tests/components/chat/media-fixture' });
    try {
      // The size is remembered by the first copy's load handler, a task after `complete` turns true.
      let height = '';
      for (let i = 0; i < 40 && !height; i++) {
        const again = await media('/ws/chart.png');
        height = again.shadowRoot!.querySelector<HTMLImageElement>('img')!.style.height;
        if (!height) await new Promise((r) => setTimeout(r, 25));
      }
      expect(height).to.equal('3px');
    } finally {
      configureApi({ base: '' });
    }
    const open = el.shadowRoot!.querySelector<HTMLAnchorElement>('[data-role="media-open"]')!;
    expect(open.target).to.equal('_blank');
    expect(q(open.getAttribute('href')).inline).to.equal('1');
  });

  it('SVG only ever as an <img>', async () => {
    const el = await media('art/logo.svg');
    expect(el.shadowRoot!.querySelector('svg:not([aria-hidden]), iframe, object')).to.equal(null);
    expect(q(el.shadowRoot!.querySelector('[data-role="media-svg"]')!.getAttribute('src')).inline).to.equal('1');
  });

  it('players for audio and video', async () => {
    const a = await media('/cache/audio/tts_1.mp3');
    const audio = a.shadowRoot!.querySelector<HTMLAudioElement>('[data-role="media-audio"]')!;
    expect(audio.controls).to.equal(true);
    expect(q(audio.getAttribute('src')).inline).to.equal('1');
    const v = await media('clip.webm');
    expect(v.shadowRoot!.querySelector<HTMLVideoElement>('[data-role="media-video"]')!.controls).to.equal(true);
  });

  it('a PDF card whose viewer opens on demand', async () => {
    const el = await media('report.pdf');
    expect(el.shadowRoot!.querySelector('iframe')).to.equal(null);
    el.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="media-pdf-toggle"]')!.click();
    await el.updateComplete;
    expect(q(el.shadowRoot!.querySelector('iframe')!.getAttribute('src')).inline).to.equal('1');
  });

  it(`a CSV as a table of its first ${CSV_PREVIEW_ROWS} rows, fetched with a Range`, async () => {
    const csv = ['name,score', ...Array.from({ length: 80 }, (_, i) => `p${i},${i}`)].join('\n');
    const fetch = stubFetch({ 'GET /api/media': () => new Response(csv, { status: 200, headers: { 'Content-Type': 'text/csv' } }) });
    try {
      const el = await media('out/scores.csv');
      await waitFor(() => !!el.shadowRoot!.querySelector('table'));
      const table = el.shadowRoot!.querySelector('table')!;
      expect([...table.querySelectorAll('th')].map((th) => th.textContent)).to.deep.equal(['name', 'score']);
      expect(table.querySelectorAll('tbody tr').length).to.equal(CSV_PREVIEW_ROWS - 1);
      expect(el.shadowRoot!.querySelector('[data-role="media-csv-more"]')).to.not.equal(null);
      expect(fetch.calls[0]!.headers.range).to.match(/^bytes=0-\d+$/);
    } finally {
      fetch.restore();
    }
  });

  it('a CSV that cannot be read becomes a download chip with the reason', async () => {
    const fetch = stubFetch({ 'GET /api/media': () => new Response(JSON.stringify({ error: 'Path not in allowed location' }), { status: 403 }) });
    try {
      const el = await media('/etc/x.csv');
      await waitFor(() => !!el.shadowRoot!.querySelector('[data-role="media-file"]'));
      expect(el.shadowRoot!.textContent).to.contain('Path not in allowed location');
    } finally {
      fetch.restore();
    }
  });

  it('anything else is a download chip', async () => {
    const el = await media('build/app.zip');
    const chip = el.shadowRoot!.querySelector<HTMLAnchorElement>('[data-role="media-file"]')!;
    expect(chip.textContent).to.contain('app.zip');
    expect(q(chip.getAttribute('href')).download).to.equal('1');
  });
});
