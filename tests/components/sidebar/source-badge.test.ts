import { expect, fixture, cleanup } from '../helpers.js';
import type { HermesSessionRow } from '../../../components/sidebar/hermes-session-row.js';
import '../../../components/sidebar/hermes-session-row.js';
import { row } from './setup.js';

const badge = (el: HermesSessionRow) => el.shadowRoot!.querySelector<HTMLElement>('[data-role="source-badge"]');

/** Hermes' own conversations in the one list carry where they came from. */
describe('hermes-session-row: source badges', () => {
  afterEach(cleanup);

  it('names the source of a Hermes conversation read from state.db', async () => {
    const el = await fixture<HermesSessionRow>('hermes-session-row', {
      row: { ...row('tg_1'), source_tag: 'telegram', source_label: 'Telegram', read_only: true },
    });
    expect(badge(el)?.textContent?.trim()).to.equal('Telegram');
    expect(badge(el)?.title).to.contain('read from Hermes');
  });

  it('keeps the badge on an imported one, and says so', async () => {
    const el = await fixture<HermesSessionRow>('hermes-session-row', {
      row: { ...row('cli_1'), source_tag: 'cli', source_label: 'CLI', is_cli_session: true },
    });
    expect(badge(el)?.textContent?.trim()).to.equal('CLI');
    expect(badge(el)?.title).to.contain('Imported');
  });

  it("a Hermes cron run shows its source; the WebUI's own rows and task runs keep theirs", async () => {
    const cron = await fixture<HermesSessionRow>('hermes-session-row', {
      row: { ...row('cron_x_1'), session_source: 'cron', source_tag: 'cron', source_label: 'Cron', read_only: true },
    });
    expect(badge(cron)?.textContent?.trim()).to.equal('Cron');
    expect(cron.shadowRoot!.querySelector('[data-role="task-badge"]')).to.equal(null);
    const ours = await fixture<HermesSessionRow>('hermes-session-row', { row: row('abc') });
    expect(badge(ours)).to.equal(null);
    const task = await fixture<HermesSessionRow>('hermes-session-row', { row: { ...row('t1'), session_source: 'cron' } });
    expect(badge(task)).to.equal(null);
    expect(task.shadowRoot!.querySelector('[data-role="task-badge"]')).to.not.equal(null);
    const webui = await fixture<HermesSessionRow>('hermes-session-row', { row: { ...row('w1'), source_tag: 'webui', source_label: 'WebUI', read_only: true } });
    expect(badge(webui)).to.equal(null);
  });
});
