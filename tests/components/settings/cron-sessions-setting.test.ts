import { render } from 'lit';
import { expect, waitFor } from '../helpers.js';
import { behaviourRows } from '../../../components/settings/behaviour-rows.js';
import type { SettingsRowsContext } from '../../../components/settings/settings-rows.js';
import type { Settings } from '../../../components/api/client.js';

describe('Settings → Task runs among chats', () => {
  it('saves show_cron_sessions and asks the sidebar to fetch its list again', async () => {
    const saved: Array<Partial<Settings>> = [];
    const ctx = {
      settings: { theme: 'dark', send_key: 'enter', show_thinking: true, show_cron_sessions: false } as unknown as Settings,
      save: async (patch: Partial<Settings>) => {
        saved.push(patch);
        return true;
      },
      notify: () => {},
    } as unknown as SettingsRowsContext;
    const row = behaviourRows(ctx).find((r) => r.id === 'show_cron_sessions')!;
    expect(row.label).to.equal('Task runs among chats');
    const host = document.createElement('div');
    document.body.append(host);
    const heard: unknown[] = [];
    const onChange = (e: Event) => heard.push((e as CustomEvent).detail);
    window.addEventListener('hermes-sessions-changed', onChange);
    try {
      render(row.control(), host);
      const input = host.querySelector<HTMLInputElement>('[data-role="setting-show_cron_sessions"]')!;
      expect(input.checked).to.equal(false);
      input.click();
      await waitFor(() => heard.length === 1);
      expect(saved).to.deep.equal([{ show_cron_sessions: true }]);
      expect(heard[0]).to.deep.equal({ type: 'sessions_changed', reason: 'session_update' });
    } finally {
      window.removeEventListener('hermes-sessions-changed', onChange);
      host.remove();
    }
  });
});
