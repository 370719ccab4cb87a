import { expect, fixture, cleanup, waitFor } from '../helpers.js';
import type { HermesMessageAttachments } from '../../../components/chat/hermes-message-attachments.js';
import { messageAttachments } from '../../../components/chat/hermes-message-attachments.js';
import { isLargePaste, nameForPaste, pastedTextFile } from '../../../components/composer/file-intake.js';
import '../../../components/chat/hermes-message-attachments.js';

describe('a user message’s attachments', () => {
  afterEach(cleanup);

  it('reads every stored shape: upload answers, bare paths, older entries without is_image', () => {
    expect(
      messageAttachments([
        { filename: 'shot.png', path: '/s/a/shot.png', size: 68, mime: 'image/png', is_image: true },
        { filename: 'fake.png', path: '/s/a/fake.png', size: 3, is_image: false },
        '/s/a/old.jpg',
        { path: '/s/a/notes.txt' },
        { nope: 1 },
      ]),
    ).to.deep.equal([
      { name: 'shot.png', path: '/s/a/shot.png', size: 68, isImage: true },
      { name: 'fake.png', path: '/s/a/fake.png', size: 3, isImage: false },
      { name: 'old.jpg', path: '/s/a/old.jpg', size: null, isImage: true },
      { name: 'notes.txt', path: '/s/a/notes.txt', size: null, isImage: false },
    ]);
  });

  it('draws thumbnails for images and chips for files, each pointing at GET /api/media', async () => {
    const items = messageAttachments([
      { filename: 'shot.png', path: '/s/a/shot.png', size: 68, is_image: true },
      { filename: 'notes.txt', path: '/s/a/notes.txt', size: 2048, is_image: false },
    ]);
    const el = await fixture<HermesMessageAttachments>('hermes-message-attachments', { items, sessionId: 'sid1' });
    const img = el.shadowRoot!.querySelector<HTMLImageElement>('[data-role="attachment-thumb"] img')!;
    expect(img.getAttribute('src')).to.equal('/api/media?path=%2Fs%2Fa%2Fshot.png&session_id=sid1&inline=1');
    const chip = el.shadowRoot!.querySelector<HTMLAnchorElement>('[data-role="attachment-chip"]')!;
    expect(chip.getAttribute('href')).to.equal('/api/media?path=%2Fs%2Fa%2Fnotes.txt&session_id=sid1');
    expect(chip.textContent).to.contain('notes.txt').and.contain('2 kB'); // Intl's unit (the language's own abbreviation)
    // The media route answers 404 for a file deleted since: the name shows instead of a broken picture.
    await waitFor(() => !!el.shadowRoot!.querySelector('.broken'), 5000);
    expect(el.shadowRoot!.querySelector('.missing')!.textContent).to.contain('shot.png');
  });
});

describe('paste intake', () => {
  it('names pasted images screenshot-<ts>.<ext> (numbered when several) and leaves other files alone', () => {
    const png = new File(['x'], 'image.png', { type: 'image/png' });
    expect(nameForPaste(png, 0, 1, 1700000000000).name).to.equal('screenshot-1700000000000.png');
    expect(nameForPaste(new File(['x'], 'blob', { type: 'image/jpeg' }), 1, 2, 5).name).to.equal('screenshot-5-2.jpeg');
    const doc = new File(['x'], 'report.pdf', { type: 'application/pdf' });
    expect(nameForPaste(doc)).to.equal(doc);
  });

  it('treats 4,000 characters or 100 lines as a large paste (a final newline is not a line)', () => {
    expect(isLargePaste('a'.repeat(3999))).to.equal(false);
    expect(isLargePaste('a'.repeat(4000))).to.equal(true);
    expect(isLargePaste(`${Array.from({ length: 99 }, () => 'x').join('\n')}\n`)).to.equal(false);
    expect(isLargePaste(Array.from({ length: 100 }, () => 'x').join('\n'))).to.equal(true);
    expect(isLargePaste(' '.repeat(5000))).to.equal(false);
  });

  it('makes pasted-text-<local time>.md files of markdown', async () => {
    const file = pastedTextFile('# hi', new Date(2026, 0, 2, 3, 4, 5, 6));
    expect(file.name).to.equal('pasted-text-2026-01-02_03-04-05-006.md');
    expect(file.type).to.contain('text/markdown');
    expect(await file.text()).to.equal('# hi');
  });
});
