import { expect, fixture, cleanup, waitFor } from '../helpers.js';
import '../../../components/composer/hermes-context-ring.js';
import '../../../components/composer/hermes-attachment-chip.js';
import type { HermesContextRing } from '../../../components/composer/hermes-context-ring.js';
import type { HermesAttachmentChip } from '../../../components/composer/hermes-attachment-chip.js';
import { suggestions } from '../../../components/composer/slash-commands.js';
import { applyLanguage } from '../../../components/i18n/localization.js';
import { makeStores, openSession, session } from './setup.js';

/** Text with every kind of space (Intl writes no-break and narrow spaces) as a plain one. */
const flat = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
const part = (el: HTMLElement, role: string) => el.shadowRoot!.querySelector<HTMLElement>(`[data-role="${role}"]`);

describe('the composer in another language', () => {
  afterEach(async () => {
    cleanup();
    await applyLanguage('en');
    localStorage.removeItem('hermes:language');
  });

  it('the context ring re-renders its figures and its button in German, and back', async () => {
    const s = makeStores();
    openSession(s.chat, session('s1', { last_prompt_tokens: 25_000, context_length: 100_000, threshold_tokens: 75_000 }));
    const el = await fixture<HermesContextRing>('hermes-context-ring', { chat: s.chat, ui: s.ui });
    part(el, 'context-ring')!.click();
    await el.updateComplete;
    const details = part(el, 'context-details')!;
    expect(flat(details.querySelector('[data-field="context"]'))).to.equal('Context: 25,000 of 100,000 tokens (25%)');

    await applyLanguage('de');
    await waitFor(() => flat(part(el, 'context-compress')) === 'Komprimieren');
    const de = part(el, 'context-details')!;
    expect(flat(de.querySelector('[data-field="context"]'))).to.equal('Kontext: 25.000 von 100.000 Tokens (25 %)');
    expect(flat(de.querySelector('[data-field="threshold"]'))).to.equal('Komprimiert automatisch bei 75.000 Tokens (75 %)');
    expect(flat(part(el, 'context-ring'))).to.equal('25 %');

    await applyLanguage('en');
    await waitFor(() => flat(part(el, 'context-compress')) === 'Compress');
    expect(flat(part(el, 'context-ring'))).to.equal('25%');
  });

  it('an attachment chip says its size, its extraction and its buttons in French', async () => {
    await applyLanguage('fr');
    const chip = await fixture<HermesAttachmentChip>('hermes-attachment-chip', {
      name: 'bundle.zip',
      size: 3 * 1024 * 1024,
      status: 'done',
      extractable: true,
    });
    expect(flat(part(chip, 'attachment-detail'))).to.equal('3,0 Mo');
    expect(part(chip, 'attachment-remove')!.getAttribute('aria-label')).to.equal('Retirer bundle.zip');
    expect(part(chip, 'attachment-extract')!.getAttribute('title')).to.equal('Extraire dans l’espace de travail');
    chip.extraction = { state: 'done', count: 1200, folder: 'bundle' };
    await chip.updateComplete;
    expect(flat(part(chip, 'attachment-detail'))).to.equal('1 200 fichiers → bundle/');
  });

  it('the slash menu describes the commands in Japanese', async () => {
    await applyLanguage('ja');
    const [item] = suggestions('/new', []);
    expect(item!.label).to.equal('/new');
    expect(item!.description).to.equal('新しいチャットを開始');
  });
});
