import { expect, fixture, cleanup, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import type { FileEntry } from '../../../components/api/client.js';
import '../../../components/workspace/hermes-file-tree.js';
import type { HermesFileTree } from '../../../components/workspace/hermes-file-tree.js';

const entry = (path: string, isDir = false): FileEntry => ({
  name: path.split('/').pop()!,
  path,
  type: isDir ? 'dir' : 'file',
  is_dir: isDir,
  size: 10,
  mtime_ns: '0',
});

/** A workspace listing, served by GET /api/list?path=… (deliberately not dirs-first). */
const LISTING: Record<string, FileEntry[]> = {
  '': [entry('b.txt'), entry('src', true), entry('a.md'), entry('docs', true)],
  src: [entry('src/main.ts'), entry('src/lib', true)],
  docs: [],
};
const listPath = (c: FetchCall) => new URL(c.url, location.href).searchParams.get('path') ?? '';

function stub(extra: Record<string, unknown> = {}) {
  return stubFetch({
    'GET /api/list': (c: FetchCall) => ({ entries: LISTING[listPath(c)] ?? [], path: listPath(c) || '.', workspace: '/w' }),
    ...extra,
  });
}

const names = (tree: HermesFileTree) => [...tree.shadowRoot!.querySelectorAll<HTMLElement>('[role="treeitem"]')].map((r) => r.dataset.path);
const row = (tree: HermesFileTree, path: string) => tree.shadowRoot!.querySelector<HTMLElement>(`[data-path="${path}"]`)!;

describe('hermes-file-tree', () => {
  let fetch: ReturnType<typeof stub>;
  afterEach(() => {
    fetch.restore();
    cleanup();
  });

  it('lists the root dirs first and loads a folder only when it is expanded', async () => {
    fetch = stub();
    const tree = await fixture<HermesFileTree>('hermes-file-tree', { sessionId: 's1' });
    await waitFor(() => expect(names(tree)).to.deep.equal(['docs', 'src', 'a.md', 'b.txt']));
    expect(fetch.calls.map(listPath)).to.deep.equal(['']);
    expect(row(tree, 'src').getAttribute('aria-expanded')).to.equal('false');

    row(tree, 'src').click();
    await waitFor(() => expect(names(tree)).to.deep.equal(['docs', 'src', 'src/lib', 'src/main.ts', 'a.md', 'b.txt']));
    expect(fetch.calls.map(listPath)).to.deep.equal(['', 'src']);
    expect(row(tree, 'src').getAttribute('aria-expanded')).to.equal('true');

    // Collapsing and expanding again uses what was loaded.
    row(tree, 'src').click();
    await waitFor(() => expect(names(tree)).to.not.include('src/main.ts'));
    row(tree, 'src').click();
    await waitFor(() => expect(names(tree)).to.include('src/main.ts'));
    expect(fetch.calls.length).to.equal(2);
  });

  it('moves with the arrow keys, expands with →, and opens a file with Enter', async () => {
    fetch = stub();
    const tree = await fixture<HermesFileTree>('hermes-file-tree', { sessionId: 's1' });
    await waitFor(() => expect(names(tree)).to.have.length(4));
    const opened: string[] = [];
    const onOpen = (e: Event) => opened.push((e as CustomEvent<{ path: string }>).detail.path);
    window.addEventListener('hermes-open-file', onOpen);
    const key = (k: string) => tree.shadowRoot!.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, composed: true }));
    row(tree, 'docs').focus();
    key('ArrowDown');
    await tree.updateComplete;
    expect(tree.shadowRoot!.activeElement?.getAttribute('data-path')).to.equal('src');
    key('ArrowRight');
    await waitFor(() => expect(names(tree)).to.include('src/main.ts'));
    key('ArrowDown');
    key('ArrowDown');
    await tree.updateComplete;
    key('Enter');
    window.removeEventListener('hermes-open-file', onOpen);
    expect(opened).to.deep.equal(['src/main.ts']);
  });

  it('renames an entry through /api/file/rename and reloads', async () => {
    fetch = stub({ 'POST /api/file/rename': { ok: true, path: 'c.md' } });
    const tree = await fixture<HermesFileTree>('hermes-file-tree', { sessionId: 's1' });
    await waitFor(() => expect(names(tree)).to.have.length(4));
    let renamed: unknown = null;
    tree.addEventListener('hermes-file-renamed', (e) => (renamed = e.detail));
    row(tree, 'a.md').querySelector<HTMLButtonElement>('[data-action="rename"]')!.click();
    await tree.updateComplete;
    const input = tree.shadowRoot!.querySelector<HTMLInputElement>('.name-input')!;
    expect(input.value).to.equal('a.md');
    input.value = 'c.md';
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    await waitFor(() => expect(renamed).to.deep.equal({ from: 'a.md', to: 'c.md' }));
    const call = fetch.calls.find((c) => c.url === '/api/file/rename')!;
    expect(call.body).to.deep.equal({ session_id: 's1', path: 'a.md', new_name: 'c.md' });
    expect(fetch.calls.filter((c) => c.method === 'GET').length).to.be.greaterThan(1);
  });

  it('asks before deleting, then calls /api/file/delete (recursive for a folder)', async () => {
    fetch = stub({ 'POST /api/file/delete': { ok: true } });
    const tree = await fixture<HermesFileTree>('hermes-file-tree', { sessionId: 's1' });
    await waitFor(() => expect(names(tree)).to.have.length(4));
    row(tree, 'docs').querySelector<HTMLButtonElement>('[data-action="delete"]')!.click();
    await tree.updateComplete;
    expect(fetch.calls.some((c) => c.method === 'POST')).to.equal(false);
    tree.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="confirm-delete"]')!.click();
    await waitFor(() => expect(fetch.calls.find((c) => c.url === '/api/file/delete')?.body).to.deep.equal({ session_id: 's1', path: 'docs', recursive: true }));
  });

  it('creates a file in the workspace and opens it', async () => {
    fetch = stub({ 'POST /api/file/create': { ok: true, path: 'new.txt' } });
    const tree = await fixture<HermesFileTree>('hermes-file-tree', { sessionId: 's1' });
    await waitFor(() => expect(names(tree)).to.have.length(4));
    const opened: string[] = [];
    const onOpen = (e: Event) => opened.push((e as CustomEvent<{ path: string }>).detail.path);
    window.addEventListener('hermes-open-file', onOpen);
    tree.startCreate('file');
    await tree.updateComplete;
    const input = tree.shadowRoot!.querySelector<HTMLInputElement>('.name-input')!;
    input.value = 'new.txt';
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    await waitFor(() => expect(opened).to.deep.equal(['new.txt']));
    window.removeEventListener('hermes-open-file', onOpen);
    expect(fetch.calls.find((c) => c.url === '/api/file/create')?.body).to.deep.equal({ session_id: 's1', path: 'new.txt', content: '' });
  });

  it('shows the server error when an action fails', async () => {
    fetch = stub({ 'POST /api/file/create-dir': new Response(JSON.stringify({ error: 'Path already exists' }), { status: 400 }) });
    const tree = await fixture<HermesFileTree>('hermes-file-tree', { sessionId: 's1' });
    await waitFor(() => expect(names(tree)).to.have.length(4));
    tree.startCreate('dir');
    await tree.updateComplete;
    const input = tree.shadowRoot!.querySelector<HTMLInputElement>('.name-input')!;
    input.value = 'docs';
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
    await waitFor(() => expect(tree.shadowRoot!.querySelector('[role="alert"]')?.textContent).to.contain('Path already exists'));
  });
});

describe('hermes-file-tree: folder transfer and symlink loops', () => {
  let fetch: ReturnType<typeof stubFetch>;
  const realXhr = window.XMLHttpRequest;
  afterEach(() => {
    fetch.restore();
    window.XMLHttpRequest = realXhr;
    cleanup();
  });

  it('offers "Download folder" as a zip link on folders only, and flags a symlink loop without making it expandable', async () => {
    const loop: FileEntry = { ...entry('src/again'), type: 'symlink', is_dir: false, symlink_loop: true };
    fetch = stubFetch({
      'GET /api/list': (c: FetchCall) => ({ entries: listPath(c) === 'src' ? [loop] : [entry('src', true), entry('a.md')], path: '.', workspace: '/w' }),
    });
    const tree = await fixture<HermesFileTree>('hermes-file-tree', { sessionId: 's1' });
    await waitFor(() => expect(names(tree)).to.deep.equal(['src', 'a.md']));
    const link = row(tree, 'src').querySelector<HTMLAnchorElement>('[data-action="download-folder"]')!;
    const url = new URL(link.href);
    expect(url.pathname).to.equal('/api/folder/download');
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({ session_id: 's1', path: 'src' });
    expect(link.getAttribute('download')).to.equal('src.zip');
    expect(row(tree, 'a.md').querySelector('[data-action="download-folder"]')).to.equal(null);
    row(tree, 'src').click();
    await waitFor(() => expect(names(tree)).to.include('src/again'));
    const looped = row(tree, 'src/again');
    expect(looped.querySelector('[data-role="symlink-loop"]')!.textContent).to.equal('loop');
    expect(looped.hasAttribute('aria-expanded')).to.equal(false);
  });

  it('uploads into the folder it was asked for, then reloads it; an archive it could not extract says why', async () => {
    const sent: { url: string; fields: Record<string, string> }[] = [];
    class FakeXhr {
      status = 200;
      responseText = '';
      upload = {};
      onload: (() => void) | null = null;
      #url = '';
      open(_m: string, url: string) {
        this.#url = url;
      }
      setRequestHeader() {}
      send(form: FormData) {
        const fields: Record<string, string> = {};
        for (const [k, v] of form.entries()) fields[k] = typeof v === 'string' ? v : v.name;
        sent.push({ url: this.#url, fields });
        const bad = fields.file === 'evil.zip';
        this.responseText = JSON.stringify(
          bad ? { filename: 'evil.zip', extracted: false, extract_error: 'Zip-slip blocked: ../x' } : { filename: fields.file, extracted: false },
        );
        setTimeout(() => this.onload?.());
      }
    }
    window.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
    fetch = stub({ 'GET /api/auth/status': { csrf_token: null } });
    const tree = await fixture<HermesFileTree>('hermes-file-tree', { sessionId: 's1' });
    await waitFor(() => expect(names(tree)).to.have.length(4));
    await tree.uploadFiles('src', [new File(['x'], 'notes.txt'), new File(['z'], 'evil.zip')]);
    expect(sent.map((s) => [new URL(s.url, location.href).pathname, s.fields])).to.deep.equal([
      ['/api/workspace/upload', { session_id: 's1', path: 'src', file: 'notes.txt' }],
      ['/api/workspace/upload', { session_id: 's1', path: 'src', file: 'evil.zip' }],
    ]);
    expect(fetch.calls.map(listPath)).to.include('src');
    await tree.updateComplete;
    expect(tree.shadowRoot!.querySelector('[role="alert"]')!.textContent).to.equal('evil.zip: Zip-slip blocked: ../x');

    // Files dropped from the desktop onto a folder row go into that folder.
    const dt = new DataTransfer();
    dt.items.add(new File(['d'], 'dropped.txt'));
    row(tree, 'docs').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, composed: true, cancelable: true }));
    await waitFor(() => expect(sent.at(-1)?.fields).to.deep.equal({ session_id: 's1', path: 'docs', file: 'dropped.txt' }));
  });
});
