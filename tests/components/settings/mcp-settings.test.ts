import { cleanup, expect, fixture, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import '../../../components/settings/hermes-mcp-settings.js';
import type { HermesMcpSettings } from '../../../components/settings/hermes-mcp-settings.js';
import type { McpServerRow } from '../../../components/api/mcp.js';

const base = { timeout: 300, timeout_set: false, connect_timeout: 60, enabled: true, active: false, tool_count: null } as const;
const SERVERS: McpServerRow[] = [
  {
    ...base,
    name: 'github',
    transport: 'stdio',
    command: 'npx',
    args: ['-y', 'server-github'],
    env: { GITHUB_TOKEN: '••••••' },
    active: true,
    status: 'active',
    tool_count: 12,
  },
  {
    ...base,
    name: 'web',
    transport: 'http',
    url: 'https://mcp.example.com/mcp',
    headers: { Authorization: '••••••' },
    status: 'failed',
    error: 'fetch failed (ECONNREFUSED)',
  },
  { ...base, name: 'old', transport: 'stdio', command: 'x', enabled: false, status: 'disabled' },
];

function stub() {
  let servers = SERVERS.map((s) => ({ ...s }));
  const routes: Record<string, unknown> = {
    'GET /api/mcp/servers': () => ({ servers, toggle_supported: true, reload_required: false }),
    'PUT /api/mcp/servers/github': (c: FetchCall) => {
      servers = servers.map((s) => (s.name === 'github' ? { ...s, ...c.body } : s));
      return { ok: true, server: servers[0] };
    },
    'PUT /api/mcp/servers/new%20one': (c: FetchCall) => {
      const added = { ...base, name: 'new one', transport: 'http' as const, url: c.body.url, status: 'configured' as const };
      servers = [...servers, added];
      return { ok: true, server: added };
    },
    'PATCH /api/mcp/servers/old': (c: FetchCall) => {
      servers = servers.map((s) => (s.name === 'old' ? { ...s, enabled: c.body.enabled, status: 'configured' as const } : s));
      return { ok: true, name: 'old', enabled: c.body.enabled };
    },
    'DELETE /api/mcp/servers/web': () => {
      servers = servers.filter((s) => s.name !== 'web');
      return { ok: true, deleted: 'web' };
    },
  };
  return stubFetch(routes);
}

const q = (el: HermesMcpSettings, sel: string) => el.shadowRoot!.querySelector<HTMLElement>(sel);
const form = (el: HermesMcpSettings) => q(el, 'hermes-mcp-server-form')!.shadowRoot!;

describe('<hermes-mcp-settings>', () => {
  afterEach(cleanup);

  it('lists servers with status, tool count and errors', async () => {
    const f = stub();
    try {
      const el = await fixture<HermesMcpSettings>('hermes-mcp-settings');
      await waitFor(() => !!q(el, 'li[data-server="github"]'));
      expect(q(el, 'li[data-server="github"] [data-role="mcp-status"]')!.textContent).to.contain('Connected · 12 tools');
      expect(q(el, 'li[data-server="web"] [data-role="mcp-status"]')!.textContent).to.contain('Failed to connect');
      expect(q(el, 'li[data-server="web"] [data-role="mcp-error"]')!.textContent).to.contain('ECONNREFUSED');
      expect(q(el, 'li[data-server="old"]')!.dataset.status).to.equal('disabled');
      expect((q(el, 'li[data-server="old"] [data-action="toggle"]') as HTMLInputElement).checked).to.equal(false);
    } finally {
      f.restore();
    }
  });

  it('edits with the masked values sent back, toggles, removes after a confirmation, adds', async () => {
    const f = stub();
    try {
      const el = await fixture<HermesMcpSettings>('hermes-mcp-settings');
      await waitFor(() => !!q(el, 'li[data-server="github"]'));
      q(el, 'li[data-server="github"] [data-action="edit"]')!.click();
      await waitFor(() => !!q(el, 'hermes-mcp-server-form')?.shadowRoot?.querySelector('#mcp-env'));
      const env = form(el).querySelector<HTMLTextAreaElement>('#mcp-env')!;
      expect(env.value).to.equal('GITHUB_TOKEN=••••••');
      expect(form(el).querySelector<HTMLTextAreaElement>('#mcp-args')!.value).to.equal('-y\nserver-github');
      env.value = 'GITHUB_TOKEN=••••••\nEXTRA=1';
      form(el).querySelector<HTMLButtonElement>('[data-action="save-mcp"]')!.click();
      await waitFor(() => f.calls.some((c) => c.method === 'PUT'));
      expect(f.calls.find((c) => c.method === 'PUT')!.body).to.deep.equal({
        command: 'npx',
        args: ['-y', 'server-github'],
        env: { GITHUB_TOKEN: '••••••', EXTRA: '1' },
      });
      await waitFor(() => !q(el, 'hermes-mcp-server-form'));

      (q(el, 'li[data-server="old"] [data-action="toggle"]') as HTMLInputElement).click();
      await waitFor(() => f.calls.some((c) => c.method === 'PATCH'));
      expect(f.calls.find((c) => c.method === 'PATCH')!.body).to.deep.equal({ enabled: true });
      await waitFor(() => q(el, 'li[data-server="old"]')?.dataset.status === 'configured');

      q(el, 'li[data-server="web"] [data-action="remove"]')!.click();
      await waitFor(() => !!q(el, 'li[data-server="web"] [data-action="confirm-remove"]'));
      expect(f.calls.some((c) => c.method === 'DELETE')).to.equal(false);
      q(el, 'li[data-server="web"] [data-action="confirm-remove"]')!.click();
      await waitFor(() => !q(el, 'li[data-server="web"]'));

      q(el, '[data-action="add-mcp"]')!.click();
      await waitFor(() => !!q(el, 'hermes-mcp-server-form')?.shadowRoot?.querySelector('#mcp-name'));
      form(el).querySelector<HTMLInputElement>('#mcp-name')!.value = 'new one';
      form(el).querySelector<HTMLInputElement>('input[value="http"]')!.click();
      await waitFor(() => !!form(el).querySelector('#mcp-url'));
      // A header line without "Name: value" is refused before anything is sent.
      form(el).querySelector<HTMLInputElement>('#mcp-url')!.value = 'https://new.example/mcp';
      form(el).querySelector<HTMLTextAreaElement>('#mcp-headers')!.value = 'no separator';
      form(el).querySelector<HTMLButtonElement>('[data-action="save-mcp"]')!.click();
      await waitFor(() => !!form(el).querySelector('.field-error')?.textContent?.includes('Name: value'));
      form(el).querySelector<HTMLTextAreaElement>('#mcp-headers')!.value = '';
      form(el).querySelector<HTMLButtonElement>('[data-action="save-mcp"]')!.click();
      await waitFor(() => !!q(el, 'li[data-server="new one"]'));
      expect(f.calls.filter((c) => c.method === 'PUT').at(-1)!.body).to.deep.equal({ url: 'https://new.example/mcp', headers: {} });
    } finally {
      f.restore();
    }
  });
});
