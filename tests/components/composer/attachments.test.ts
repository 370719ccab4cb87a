import { offlineCache } from '../../../components/offline/cache.js';
import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import '../../../components/composer/hermes-composer.js';
import '../../../components/composer/hermes-attachment-chip.js';
import type { HermesComposer } from '../../../components/composer/hermes-composer.js';
import type { HermesAttachmentChip } from '../../../components/composer/hermes-attachment-chip.js';
import { CATALOG, makeStores, openSession, session, type Stores } from './setup.js';

/** A stand-in XMLHttpRequest: each instance is kept so the test drives its progress and end. */
class FakeXhr {
  static all: FakeXhr[] = [];
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  status = 0;
  responseText = '';
  url = '';
  body: FormData | null = null;
  constructor() {
    FakeXhr.all.push(this);
  }
  open(_method: string, url: string) {
    this.url = url;
  }
  send(body: FormData) {
    this.body = body;
  }
  progress(fraction: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded: fraction * 100, total: 100 });
  }
  finish(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const chips = (el: HermesComposer) => [...el.shadowRoot!.querySelectorAll('hermes-attachment-chip')];
const chipPart = (chip: HermesAttachmentChip, role: string) => chip.shadowRoot!.querySelector(`[data-role="${role}"]`) as HTMLElement | null;

describe('composer attachments', () => {
  let s: Stores;
  let fetchStub: ReturnType<typeof stubFetch>;
  const RealXhr = window.XMLHttpRequest;

  beforeEach(() => {
    localStorage.clear();
    FakeXhr.all = [];
    (window as any).XMLHttpRequest = FakeXhr;
    fetchStub = stubFetch({
      'GET /api/models': CATALOG,
      'GET /api/workspaces': { workspaces: [], last: '/w' },
      'POST /api/session/new': { session: session('fresh') },
      'GET /api/session': { session: session('fresh') },
    });
    s = makeStores();
  });
  afterEach(() => {
    cleanup();
    fetchStub.restore();
    window.XMLHttpRequest = RealXhr;
  });

  it('shows a chip per upload with progress, then the stored file; the send names its path', async () => {
    openSession(s.chat, session('s1'));
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    await el.addFiles([new File(['hello'], 'notes.txt', { type: 'text/plain' })]);
    await el.updateComplete;
    // The first upload waits for the CSRF token lookup.
    await waitFor(() => expect(FakeXhr.all).to.have.length(1));
    expect(FakeXhr.all[0]!.url).to.equal('/api/upload');
    expect(FakeXhr.all[0]!.body!.get('session_id')).to.equal('s1');
    const chip = chips(el)[0]!;
    await chip.updateComplete;
    expect(chipPart(chip, 'attachment-chip')!.dataset.state).to.equal('uploading');

    FakeXhr.all[0]!.progress(0.42);
    await el.updateComplete;
    await chip.updateComplete;
    expect(chipPart(chip, 'attachment-detail')!.textContent).to.equal('42%');

    // Sending waits for uploads to finish.
    const ta = el.shadowRoot!.querySelector('textarea')!;
    ta.value = 'see attached';
    ta.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="send"]')!.disabled).to.equal(true);

    FakeXhr.all[0]!.finish(200, { filename: 'notes.txt', path: '/state/attachments/s1/notes.txt', size: 5, mime: 'text/plain', is_image: false });
    await tick();
    await el.updateComplete;
    await chip.updateComplete;
    expect(chipPart(chip, 'attachment-chip')!.dataset.state).to.equal('done');

    await el.send();
    expect(s.sent).to.deep.equal([{ text: 'see attached', options: { attachments: ['/state/attachments/s1/notes.txt'] } }]);
    expect(chips(el)).to.have.length(0);
  });

  it('shows a failed upload as an error chip that can be removed, and leaves it out of the send', async () => {
    openSession(s.chat, session('s1'));
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    await el.addFiles([new File(['x'], 'big.bin')]);
    await waitFor(() => FakeXhr.all.length === 1);
    FakeXhr.all[0]!.finish(413, { error: 'File too large (limit 20 MB)' });
    await tick();
    await el.updateComplete;
    const chip = chips(el)[0]!;
    await chip.updateComplete;
    expect(chipPart(chip, 'attachment-chip')!.dataset.state).to.equal('error');
    expect(chipPart(chip, 'attachment-detail')!.textContent).to.equal('File too large (limit 20 MB)');
    expect(el.attachments.paths).to.deep.equal([]);
    chipPart(chip, 'attachment-remove')!.click();
    await el.updateComplete;
    expect(chips(el)).to.have.length(0);
  });

  it('offers to extract an attached archive into the workspace, then names the folder in the send', async () => {
    openSession(s.chat, session('s1'));
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    await el.addFiles([new File(['PK'], 'bundle.zip'), new File(['x'], 'notes.txt')]);
    await waitFor(() => FakeXhr.all.length === 2);
    FakeXhr.all[0]!.finish(200, { filename: 'bundle.zip', path: '/state/attachments/s1/bundle.zip', size: 2, mime: 'application/zip', is_image: false });
    FakeXhr.all[1]!.finish(200, { filename: 'notes.txt', path: '/state/attachments/s1/notes.txt', size: 1, mime: 'text/plain', is_image: false });
    await tick();
    await el.updateComplete;
    const [zipChip, txtChip] = chips(el) as HermesAttachmentChip[];
    await zipChip!.updateComplete;
    await txtChip!.updateComplete;
    // Only the archive offers it.
    expect(chipPart(txtChip!, 'attachment-extract')).to.equal(null);
    const offer = chipPart(zipChip!, 'attachment-extract') as HTMLButtonElement;
    expect(offer.getAttribute('aria-label')).to.equal('Extract bundle.zip into workspace');

    const changed: unknown[] = [];
    const onChanged = (e: Event) => changed.push((e as CustomEvent).detail);
    window.addEventListener('hermes-workspace-changed', onChanged);
    offer.click();
    await waitFor(() => FakeXhr.all.length === 3);
    const x = FakeXhr.all[2]!;
    expect(x.url).to.equal('/api/workspace/upload');
    expect(x.body!.get('session_id')).to.equal('s1');
    expect(x.body!.get('path')).to.equal('');
    expect((x.body!.get('file') as File).name).to.equal('bundle.zip');
    await el.updateComplete;
    await zipChip!.updateComplete;
    expect(chipPart(zipChip!, 'attachment-detail')!.textContent).to.equal('Extracting…');
    expect(chipPart(zipChip!, 'attachment-extract')).to.equal(null);

    x.finish(200, {
      filename: 'bundle.zip',
      path: '/w/bundle',
      size: 2,
      is_image: false,
      extracted: true,
      extracted_files: ['bundle/a', 'bundle/b', 'bundle/c'],
      extracted_count: 3,
    });
    await tick();
    await el.updateComplete;
    await zipChip!.updateComplete;
    window.removeEventListener('hermes-workspace-changed', onChanged);
    expect(chipPart(zipChip!, 'attachment-detail')!.textContent).to.equal('3 files → bundle/');
    expect(chipPart(zipChip!, 'attachment-extract')).to.equal(null);
    expect(changed).to.deep.equal([{ sessionId: 's1' }]);
    expect(el.attachments.paths).to.deep.equal(['/w/bundle', '/state/attachments/s1/notes.txt']);
  });

  it('shows a refused extraction inline on the chip, which can try again', async () => {
    openSession(s.chat, session('s1'));
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    await el.addFiles([new File(['x'], 'evil.tar.gz')]);
    await waitFor(() => FakeXhr.all.length === 1);
    FakeXhr.all[0]!.finish(200, { filename: 'evil.tar.gz', path: '/state/attachments/s1/evil.tar.gz', size: 1, mime: 'application/gzip', is_image: false });
    await tick();
    await el.updateComplete;
    const chip = chips(el)[0] as HermesAttachmentChip;
    await chip.updateComplete;
    (chipPart(chip, 'attachment-extract') as HTMLButtonElement).click();
    await waitFor(() => FakeXhr.all.length === 2);
    FakeXhr.all[1]!.finish(200, {
      filename: 'evil.tar.gz',
      path: '',
      size: 1,
      is_image: false,
      extracted: false,
      extract_error: 'Tar-slip blocked: ../evil.txt',
    });
    await tick();
    await el.updateComplete;
    await chip.updateComplete;
    expect(chipPart(chip, 'attachment-extract-error')!.textContent).to.equal('Tar-slip blocked: ../evil.txt');
    // The archive itself is still attached, and the offer stays for another try.
    expect(el.attachments.paths).to.deep.equal(['/state/attachments/s1/evil.tar.gz']);
    (chipPart(chip, 'attachment-extract') as HTMLButtonElement).click();
    await waitFor(() => FakeXhr.all.length === 3);
    FakeXhr.all[2]!.finish(403, { error: 'Upload target escapes workspace' });
    await tick();
    await el.updateComplete;
    await chip.updateComplete;
    expect(chipPart(chip, 'attachment-extract-error')!.textContent).to.equal('Upload target escapes workspace');
  });

  it('in the empty view, attaching creates and opens the session first, keeping the typed text', async () => {
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    const opened: unknown[] = [];
    document.addEventListener('hermes-open-session', (e) => opened.push(e.detail), { once: true });
    const ta = el.shadowRoot!.querySelector('textarea')!;
    ta.value = 'look at this';
    ta.dispatchEvent(new Event('input'));
    await el.updateComplete;
    await el.addFiles([new File(['img'], 'image.png', { type: 'image/png' })]);
    await waitFor(() => FakeXhr.all.length === 1);
    expect(FakeXhr.all[0]!.body!.get('session_id')).to.equal('fresh');
    expect(s.chat.sessionId).to.equal('fresh');
    expect(opened).to.deep.equal([{ sessionId: 'fresh', replace: false }]);
    await el.updateComplete;
    expect(ta.value).to.equal('look at this');
    expect(localStorage.getItem('hermes:draft:fresh')).to.equal('look at this');
    expect(localStorage.getItem('hermes:draft:new')).to.equal(null);
    expect(chips(el)).to.have.length(1);
  });

  it('pasting an image attaches it under a screenshot name', async () => {
    openSession(s.chat, session('s1'));
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    const data = new DataTransfer();
    data.items.add(new File(['png'], 'image.png', { type: 'image/png' }));
    const paste = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true, composed: true });
    el.shadowRoot!.querySelector('textarea')!.dispatchEvent(paste);
    await waitFor(() => FakeXhr.all.length === 1);
    expect(paste.defaultPrevented).to.equal(true);
    expect((FakeXhr.all[0]!.body!.get('file') as File).name).to.match(/^screenshot-.*\.png$/);
  });

  it('dropping files onto the composer attaches them', async () => {
    openSession(s.chat, session('s1'));
    const el = await fixture<HermesComposer>('hermes-composer', { chat: s.chat, ui: s.ui, sessions: s.sessions });
    const frame = el.shadowRoot!.querySelector('[data-role="composer"]')!;
    const data = new DataTransfer();
    data.items.add(new File(['a'], 'a.md'));
    frame.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true, cancelable: true }));
    await el.updateComplete;
    expect(frame.hasAttribute('data-dragging')).to.equal(true);
    frame.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    await waitFor(() => FakeXhr.all.length === 1);
    await el.updateComplete;
    expect(frame.hasAttribute('data-dragging')).to.equal(false);
  });
});

describe('hermes-attachment-chip', () => {
  afterEach(async () => {
    cleanup();
    // Only this file's drafts: other test files share the database.
    for (const id of [null, 's1', 'fresh']) offlineCache.saveDraft(id, '');
    await offlineCache.flush();
  });

  it('shows progress as a bar and percentage, and fires remove', async () => {
    const chip = await fixture<HermesAttachmentChip>('hermes-attachment-chip', { name: 'report.pdf', size: 2048, status: 'uploading', progress: 0.25 });
    expect(chipPart(chip, 'attachment-detail')!.textContent).to.equal('25%');
    expect(chip.shadowRoot!.querySelector('[role="progressbar"]')!.getAttribute('aria-valuenow')).to.equal('25');
    chip.status = 'done';
    await chip.updateComplete;
    expect(chipPart(chip, 'attachment-detail')!.textContent).to.equal('2 kB');
    expect(chip.shadowRoot!.querySelector('[role="progressbar"]')).to.equal(null);
    let removed = 0;
    chip.addEventListener('hermes-attachment-remove', () => removed++);
    chipPart(chip, 'attachment-remove')!.click();
    expect(removed).to.equal(1);
  });

  it('shows an error with its message', async () => {
    const chip = await fixture<HermesAttachmentChip>('hermes-attachment-chip', { name: 'x.bin', status: 'error', error: 'Upload failed (500)' });
    expect(chipPart(chip, 'attachment-chip')!.dataset.state).to.equal('error');
    expect(chipPart(chip, 'attachment-detail')!.textContent).to.equal('Upload failed (500)');
  });
});
