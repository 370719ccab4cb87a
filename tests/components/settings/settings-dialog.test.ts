import { expect, cleanup, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import { mountWith, session, SETTINGS } from '../workspace/providers.js';
import '../../../components/settings/hermes-settings-dialog.js';
import type { HermesSettingsDialog } from '../../../components/settings/hermes-settings-dialog.js';
import type { HermesSessionImport } from '../../../components/settings/hermes-session-import.js';

const rows = (el: HermesSettingsDialog) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-setting]')].map((r) => r.dataset.setting);

function stub(extra: Record<string, unknown> = {}) {
  return stubFetch({
    'GET /api/models': { default_model: 'claude-x', models: [{ id: 'claude-x', label: 'Claude X', provider: 'anthropic' }] },
    'GET /api/workspaces': { workspaces: [{ path: '/home/me', name: 'Home' }], last: '/home/me' },
    'GET /api/providers': {
      active_provider: 'anthropic',
      providers: [
        {
          id: 'anthropic',
          label: 'Anthropic',
          kind: 'hosted',
          key_env: 'ANTHROPIC_API_KEY',
          key_set: true,
          key_masked: 'sk-ant-…beef',
          base_url: null,
          active: true,
          status: 'ok',
        },
      ],
    },
    'POST /api/settings': (c: FetchCall) => ({ ...SETTINGS, ...c.body }),
    ...extra,
  });
}

describe('hermes-settings-dialog', () => {
  let fetch: ReturnType<typeof stub>;
  const theme = document.documentElement.dataset.theme;
  afterEach(() => {
    fetch.restore();
    cleanup();
    document.documentElement.dataset.theme = theme ?? 'dark';
    localStorage.removeItem('hermes:theme');
    localStorage.removeItem('hermes:font-size');
  });

  it('opens as a modal dialog with every setting', async () => {
    fetch = stub();
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { session: session() });
    const dialog = el.shadowRoot!.querySelector<HTMLDialogElement>('dialog[data-role="settings"]')!;
    expect(dialog.open).to.equal(true);
    await waitFor(() => expect(rows(el)).to.include('provider:anthropic'));
    expect(rows(el)).to.deep.equal([
      'theme',
      'skin',
      'font_size',
      'language',
      'sidebar_density',
      'rtl',
      'bot_name',
      'show_cron_sessions',
      'send_key',
      'default_message_mode',
      'show_thinking',
      'show_token_usage',
      'show_tps',
      'default_model',
      'auto_scroll_follow',
      'render_user_markdown',
      'session_jump_buttons',
      'worklog_details_expanded_default',
      'hide_empty_state_suggestions',
      'large_text_paste_as_attachment',
      'tts_engine',
      'tts_voice',
      'sound_enabled',
      'notifications_enabled',
      'push_device',
      'check_for_updates',
      'provider:anthropic',
      'add_provider',
      'add_endpoint',
      'mcp_servers',
      'default_workspace',
      'workspaces',
      'export',
      'import',
      'password',
      'api_redact_enabled',
    ]);
    await waitFor(() => expect(el.shadowRoot!.querySelector<HTMLSelectElement>('#default_model')?.value).to.equal('claude-x'));
  });

  it('changes the default model through POST /api/default-model', async () => {
    fetch = stub({
      'GET /api/models': {
        default_model: 'claude-x',
        models: [
          { id: 'claude-x', label: 'Claude X', provider: 'anthropic' },
          { id: 'gpt-y', label: 'GPT Y', provider: 'openai' },
        ],
      },
      'POST /api/default-model': (c: FetchCall) => ({ ok: true, default_model: c.body.model }),
    });
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
    await waitFor(() => expect(el.shadowRoot!.querySelector('#default_model')).to.exist);
    const select = el.shadowRoot!.querySelector<HTMLSelectElement>('#default_model')!;
    select.value = 'gpt-y';
    select.dispatchEvent(new Event('change'));
    await waitFor(() => expect(fetch.calls.find((c) => c.url === '/api/default-model')?.body).to.deep.equal({ model: 'gpt-y' }));
    await waitFor(() => expect(el.shadowRoot!.querySelector('.saved')?.textContent).to.contain('Saved'));
  });

  it('says how to configure a model when none is', async () => {
    fetch = stub({ 'GET /api/models': { default_model: null, models: [] } });
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
    await waitFor(() => expect(el.shadowRoot!.querySelector('[data-setting="default_model"] .readonly')?.textContent).to.equal('Not configured'));
    expect(el.shadowRoot!.querySelector('[data-setting="default_model"]')!.textContent).to.contain('config.yaml');
  });

  it('turns secret masking off and on through POST /api/settings', async () => {
    fetch = stub({ 'POST /api/settings': (c: FetchCall) => ({ ...c.body }) });
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
    await waitFor(() => expect(el.shadowRoot!.querySelector('#api_redact_enabled')).to.exist);
    const toggle = el.shadowRoot!.querySelector<HTMLInputElement>('#api_redact_enabled')!;
    expect(toggle.checked).to.equal(true);
    toggle.click();
    await waitFor(() => expect(fetch.calls.find((c) => c.url === '/api/settings' && c.method === 'POST')?.body).to.deep.equal({ api_redact_enabled: false }));
  });

  it('saves the read-aloud engine and voice (tts_engine browser by default)', async () => {
    fetch = stub({ 'POST /api/settings': (c: FetchCall) => ({ ...c.body }) });
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
    await waitFor(() => expect(el.shadowRoot!.querySelector('#tts_engine')).to.exist);
    const engine = el.shadowRoot!.querySelector<HTMLSelectElement>('#tts_engine')!;
    expect(engine.value).to.equal('browser');
    engine.value = 'openai';
    engine.dispatchEvent(new Event('change'));
    await waitFor(() => expect(fetch.calls.find((c) => c.url === '/api/settings' && c.method === 'POST')?.body).to.deep.equal({ tts_engine: 'openai' }));
    const voice = el.shadowRoot!.querySelector<HTMLInputElement>('#tts_voice')!;
    voice.value = ' nova ';
    voice.dispatchEvent(new Event('change'));
    await waitFor(() => expect(fetch.calls.filter((c) => c.url === '/api/settings' && c.method === 'POST').at(-1)?.body).to.deep.equal({ tts_voice: 'nova' }));
  });

  it('saves what Send does while the agent works (default_message_mode, steer by default)', async () => {
    fetch = stub({ 'POST /api/settings': (c: FetchCall) => ({ ...c.body }) });
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
    await waitFor(() => expect(el.shadowRoot!.querySelector('input[name="default_message_mode"]')).to.exist);
    expect(el.shadowRoot!.querySelector<HTMLInputElement>('input[name="default_message_mode"][value="steer"]')!.checked).to.equal(true);
    el.shadowRoot!.querySelector<HTMLInputElement>('input[name="default_message_mode"][value="queue"]')!.click();
    await waitFor(() =>
      expect(fetch.calls.find((c) => c.url === '/api/settings' && c.method === 'POST')?.body).to.deep.equal({ default_message_mode: 'queue' }),
    );
  });

  it('filters rows by the search box', async () => {
    fetch = stub();
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
    const search = el.shadowRoot!.querySelector<HTMLInputElement>('input[type="search"]')!;
    const type = async (text: string) => {
      search.value = text;
      search.dispatchEvent(new Event('input'));
      await el.updateComplete;
    };
    await type('font');
    expect(rows(el)).to.deep.equal(['font_size']);
    await type('dark');
    expect(rows(el)).to.deep.equal(['theme']);
    await type('export markdown');
    expect(rows(el)).to.deep.equal(['export']);
    await type('zzz');
    expect(rows(el)).to.deep.equal([]);
    expect(el.shadowRoot!.querySelector('.empty')?.textContent).to.contain('zzz');
  });

  it('saves the theme at once and applies it to <html>', async () => {
    fetch = stub();
    const { el, ui } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
    el.shadowRoot!.querySelector<HTMLInputElement>('input[name="theme"][value="light"]')!.click();
    await waitFor(() => expect(fetch.calls.find((c) => c.method === 'POST' && c.url === '/api/settings')?.body).to.deep.equal({ theme: 'light' }));
    expect(document.documentElement.dataset.theme).to.equal('light');
    await waitFor(() => expect(ui.settings?.theme).to.equal('light'));
    await waitFor(() => expect(el.shadowRoot!.querySelector('.saved')?.textContent).to.contain('Saved'));
  });

  it('shows the server’s refusal of a default workspace next to the field', async () => {
    fetch = stub({ 'POST /api/settings': new Response(JSON.stringify({ error: 'Refusing a system directory as a workspace: /etc' }), { status: 403 }) });
    const { el, ui } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
    const input = el.shadowRoot!.querySelector<HTMLInputElement>('#default_workspace')!;
    input.value = '/etc';
    input.dispatchEvent(new Event('change'));
    await waitFor(() => expect(el.shadowRoot!.querySelector('.field-error')?.textContent).to.contain('Refusing a system directory'));
    expect(ui.settings?.default_workspace).to.equal(SETTINGS.default_workspace);
    expect(input.value, 'the typed path stays, to be corrected').to.equal('/etc');
  });

  it('links the open conversation’s exports', async () => {
    fetch = stub();
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog', { session: session('s9') });
    const hrefs = [...el.shadowRoot!.querySelectorAll('[data-setting="export"] a')].map((a) => a.getAttribute('href'));
    expect(hrefs).to.deep.equal(['/api/session/export?session_id=s9&format=md', '/api/session/export?session_id=s9&format=json']);
  });

  it('imports a JSON export, refreshes the sidebar and opens the new session', async () => {
    fetch = stub({
      'POST /api/session/import': { session: { ...session('imp1'), title: 'Imported' } },
      'GET /api/sessions': { sessions: [], total: 0, archived_count: 0 },
      'GET /api/projects': { projects: [] },
    });
    const { el, host, ui } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
    ui.openSettings(true);
    let opened: string | null = null;
    host.addEventListener('hermes-open-session', (e) => (opened = e.detail.sessionId));
    const importer = el.shadowRoot!.querySelector<HermesSessionImport>('hermes-session-import')!;
    await importer.importFile(new File([JSON.stringify({ title: 'Imported', messages: [] })], 'chat.json'));
    expect(fetch.calls.find((c) => c.url === '/api/session/import')?.body).to.deep.equal({ title: 'Imported', messages: [] });
    expect(fetch.calls.some((c) => c.url.startsWith('/api/sessions'))).to.equal(true);
    expect(opened).to.equal('imp1');
    expect(ui.settingsOpen).to.equal(false);
  });

  it('says so when the import file is not JSON', async () => {
    fetch = stub();
    const { el } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
    const importer = el.shadowRoot!.querySelector<HermesSessionImport>('hermes-session-import')!;
    await importer.importFile(new File(['nope'], 'notes.txt'));
    await importer.updateComplete;
    expect(importer.shadowRoot!.querySelector('[role="alert"]')?.textContent).to.contain('not a JSON file');
  });

  it('closes with the close button, Escape, or a click on the backdrop', async () => {
    fetch = stub();
    const { el, ui } = await mountWith<HermesSettingsDialog>('hermes-settings-dialog');
    const dialog = el.shadowRoot!.querySelector('dialog')!;
    ui.openSettings(true);
    el.shadowRoot!.querySelector<HTMLButtonElement>('[data-action="close"]')!.click();
    expect(ui.settingsOpen).to.equal(false);
    ui.openSettings(true);
    dialog.dispatchEvent(new Event('cancel', { cancelable: true }));
    expect(ui.settingsOpen).to.equal(false);
    ui.openSettings(true);
    dialog.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    dialog.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(ui.settingsOpen).to.equal(false);
    // A click inside the box does not close it.
    ui.openSettings(true);
    const box = el.shadowRoot!.querySelector('.box')!;
    box.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    box.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(ui.settingsOpen).to.equal(true);
  });
});
