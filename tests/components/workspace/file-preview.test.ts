import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/workspace/hermes-file-preview.js';
import { previewKind, type HermesFilePreview } from '../../../components/workspace/hermes-file-preview.js';

const text = (content: string) => ({ 'GET /api/file': { path: 'x', content, size: content.length, lines: content.split('\n').length } });
const q = <T extends Element = HTMLElement>(el: HermesFilePreview, sel: string) => el.shadowRoot!.querySelector<T>(sel) as T;

describe('hermes-file-preview', () => {
  let fetch: ReturnType<typeof stubFetch>;
  afterEach(() => {
    fetch.restore();
    cleanup();
  });

  it('picks a view from the file name', () => {
    fetch = stubFetch({});
    expect(previewKind('src/main.ts')).to.equal('text');
    expect(previewKind('package.json')).to.equal('text');
    expect(previewKind('README.md')).to.equal('markdown');
    expect(previewKind('logo.PNG')).to.equal('image');
    expect(previewKind('icon.svg')).to.equal('image');
    expect(previewKind('archive.zip')).to.equal('download');
    expect(previewKind('Makefile')).to.equal('probe');
  });

  it('shows text with line numbers', async () => {
    fetch = stubFetch(text('one\ntwo\nthree\n'));
    const el = await fixture<HermesFilePreview>('hermes-file-preview', { sessionId: 's1', path: 'src/main.ts' });
    await waitFor(() => expect(q(el, '[data-kind="text"]')).to.exist);
    expect(q(el, '.gutter').textContent).to.equal('1\n2\n3');
    expect(q(el, '.source').textContent).to.equal('one\ntwo\nthree\n');
    expect(fetch.calls[0]!.url).to.contain('/api/file?session_id=s1&path=src%2Fmain.ts');
  });

  it('renders markdown with <hermes-markdown>', async () => {
    fetch = stubFetch(text('# Title\n\nHello'));
    const el = await fixture<HermesFilePreview>('hermes-file-preview', { sessionId: 's1', path: 'README.md' });
    await waitFor(() => expect(q(el, 'hermes-markdown')).to.exist);
    expect((q(el, 'hermes-markdown') as HTMLElement & { text: string }).text).to.equal('# Title\n\nHello');
  });

  it('shows an image from the raw endpoint without reading it as text', async () => {
    fetch = stubFetch({});
    const el = await fixture<HermesFilePreview>('hermes-file-preview', { sessionId: 's1', path: 'img/logo.png' });
    const img = q<HTMLImageElement>(el, '[data-kind="image"] img');
    expect(img.getAttribute('src')).to.equal('/api/file/raw?session_id=s1&path=img%2Flogo.png');
    expect(fetch.calls.filter((c) => c.url.startsWith('/api/file?'))).to.have.length(0);
  });

  it('offers a download for binary files, known or sniffed', async () => {
    fetch = stubFetch(text('\u0000\u0001binary'));
    const zip = await fixture<HermesFilePreview>('hermes-file-preview', { sessionId: 's1', path: 'a.zip' });
    expect(q<HTMLAnchorElement>(zip, '[data-kind="download"] a').getAttribute('href')).to.equal('/api/file/raw?session_id=s1&path=a.zip&download=1');
    const bin = await fixture<HermesFilePreview>('hermes-file-preview', { sessionId: 's1', path: 'data.bin' });
    await waitFor(() => expect(q(bin, '[data-kind="download"]')).to.exist);
  });

  it('shows the server’s "File too large" with a download link', async () => {
    fetch = stubFetch({ 'GET /api/file': new Response(JSON.stringify({ error: 'File too large', size: 500_000, max_bytes: 400_000 }), { status: 400 }) });
    const el = await fixture<HermesFilePreview>('hermes-file-preview', { sessionId: 's1', path: 'big.log' });
    await waitFor(() => expect(q(el, '[role="alert"]')?.textContent).to.contain('File too large'));
    expect(q(el, '[data-role="download"]').getAttribute('href')).to.contain('download=1');
  });

  it('edits and saves a text file with Ctrl+S through /api/file/save', async () => {
    fetch = stubFetch({ ...text('old'), 'POST /api/file/save': { ok: true, path: 'notes.txt', size: 3 } });
    const el = await fixture<HermesFilePreview>('hermes-file-preview', { sessionId: 's1', path: 'notes.txt' });
    await waitFor(() => expect(q(el, '[data-action="edit"]')).to.exist);
    q(el, '[data-action="edit"]').click();
    await el.updateComplete;
    const editor = q(el, 'hermes-file-editor')!;
    await (editor as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    const area = editor.shadowRoot!.querySelector('textarea')!;
    expect(area.value).to.equal('old');
    area.value = 'new text';
    area.dispatchEvent(new Event('input'));
    await (editor as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(editor.shadowRoot!.querySelector('[data-role="dirty"]')).to.exist;
    expect(el.dirty).to.equal(true);
    area.dispatchEvent(new KeyboardEvent('keydown', { key: 's', ctrlKey: true, bubbles: true }));
    await waitFor(() => expect(q(el, '.source')?.textContent).to.equal('new text'));
    expect(fetch.calls.find((c) => c.url === '/api/file/save')?.body).to.deep.equal({ session_id: 's1', path: 'notes.txt', content: 'new text' });
  });

  it('keeps the draft and shows the error when saving fails', async () => {
    fetch = stubFetch({
      ...text('old'),
      'POST /api/file/save': new Response(JSON.stringify({ error: 'Cannot save to a symlinked entry' }), { status: 400 }),
    });
    const el = await fixture<HermesFilePreview>('hermes-file-preview', { sessionId: 's1', path: 'link.txt' });
    await waitFor(() => expect(q(el, '[data-action="edit"]')).to.exist);
    q(el, '[data-action="edit"]').click();
    await el.updateComplete;
    const editor = q(el, 'hermes-file-editor')!;
    const area = editor.shadowRoot!.querySelector('textarea')!;
    area.value = 'changed';
    area.dispatchEvent(new Event('input'));
    await (editor as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    editor.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="save"]')!.click();
    await waitFor(() => expect(editor.shadowRoot!.querySelector('[role="alert"]')?.textContent).to.contain('symlink'));
    expect(area.value).to.equal('changed');
  });
});
