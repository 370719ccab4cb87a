import { expect, cleanup, waitFor } from '../helpers.js';
import { applyLanguage } from '../../../components/i18n/localization.js';
import type { Settings } from '../../../components/api/client.js';
import { earlierToday, mountSidebar, openMenu, row, type Mounted } from './setup.js';

const flat = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

const ROWS = [
  row('t1', { title: 'Release notes', updated_at: earlierToday(600), message_count: 1234, model: 'openai/gpt-5' }),
  row('p1', { title: 'Pinned plan', pinned: true, archived: true }),
];

describe('the sidebar in another language', () => {
  let m: Mounted;
  afterEach(async () => {
    m?.restore();
    cleanup();
    await applyLanguage('en');
    localStorage.removeItem('hermes:language');
  });

  it('re-renders buckets, counts, buttons and the row menu in German, and back', async () => {
    m = await mountSidebar(ROWS);
    // The detailed density shows each row's message count, a number the language formats.
    m.host.ui.settings = { sidebar_density: 'detailed' } as Settings;
    m.host.ui.dispatchEvent(new Event('change'));
    const meta = () => flat(m.rowEl('t1').shadowRoot.querySelector('[data-role="session-meta"]'));
    const headers = () => m.$$('[data-role="bucket-header"]').map(flat);
    await waitFor(() => meta() === '1,234 messages · gpt-5');
    expect(headers()).to.deep.equal(['Pinned', 'Today']);
    expect(flat(m.$('[data-role="session-count"]'))).to.equal('2 chats');

    await applyLanguage('de');
    await waitFor(() => headers().join() === 'Angeheftet,Heute');
    expect(meta()).to.equal('1.234 Nachrichten · gpt-5');
    expect(flat(m.$('[data-role="session-count"]'))).to.equal('2 Chats');
    expect(flat(m.$('[data-role="new-chat"]'))).to.equal('Neuer Chat');
    expect(m.$('[data-role="new-chat"]')?.getAttribute('title')).to.equal('Neuer Chat (Ctrl+K)');
    expect(m.$('[data-role="session-search"]')?.getAttribute('placeholder')).to.equal('Chats durchsuchen');
    expect(flat(m.$('[data-role="archived-toggle"]'))).to.equal('Archivierte anzeigen');
    expect(flat(m.$('[data-role="project-chip"][data-project-id=""]'))).to.equal('Alle');
    const more = m.rowEl('t1').shadowRoot.querySelector('[data-role="row-menu-button"]');
    expect(more?.getAttribute('aria-label')).to.equal('Optionen für Release notes');
    expect(m.rowEl('p1').shadowRoot.querySelector('.badge')?.getAttribute('title')).to.equal('Archiviert');

    const menu = await openMenu(m, 'p1');
    expect(flat(menu.querySelector('[data-action="pin"]'))).to.equal('Nicht mehr anheften');
    expect(flat(menu.querySelector('[data-action="archive"]'))).to.equal('Aus dem Archiv holen');
    menu.querySelector<HTMLElement>('[data-action="delete"]')!.click();
    await waitFor(() => !!menu.querySelector('.confirm'));
    expect(flat(menu.querySelector('.confirm'))).to.equal('„Pinned plan“ löschen? Das kann nicht rückgängig gemacht werden.');

    await applyLanguage('en');
    await waitFor(() => headers().join() === 'Pinned,Today');
    expect(meta()).to.equal('1,234 messages · gpt-5');
    expect(flat(menu.querySelector('.confirm'))).to.equal('Delete “Pinned plan”? This cannot be undone.');
  });

  it('a search with no match says so in Japanese, with the query inside the sentence', async () => {
    m = await mountSidebar(ROWS, { 'GET /api/sessions/search': { sessions: [] } });
    await applyLanguage('ja');
    const input = m.$('[data-role="session-search"]') as HTMLInputElement;
    input.value = 'zzz';
    input.dispatchEvent(new Event('input'));
    await waitFor(() => flat(m.$('.empty.meta')) === '「zzz」に一致するチャットはありません');
    expect(input.getAttribute('placeholder')).to.equal('チャットを検索');
    expect(m.$('[data-role="clear-search"]')?.getAttribute('aria-label')).to.equal('検索をクリア');
  });
});
