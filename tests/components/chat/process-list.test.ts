import { expect, cleanup, fixture, stubFetch, waitFor } from '../helpers.js';
import type { BackgroundProcessRow } from '../../../src/shared/processes.js';
import type { ToolView } from '../../../components/state/turns.js';
import type { HermesActivity } from '../../../components/chat/hermes-activity.js';
import { startedProcessIds, type HermesProcessList } from '../../../components/chat/hermes-process-list.js';
import '../../../components/chat/hermes-activity.js';

const ID = 'proc_0123456789ab';
const started = (over: Partial<ToolView> = {}): ToolView => ({
  id: 'c1',
  name: 'terminal',
  preview: 'npm run dev',
  args: { command: 'npm run dev', background: true },
  status: 'done',
  result: JSON.stringify({ output: 'Background process started', session_id: ID, pid: 42, exit_code: 0, error: null }),
  ...over,
});
const proc = (over: Partial<BackgroundProcessRow> = {}): BackgroundProcessRow => ({
  session_id: ID,
  command: 'npm run dev',
  cwd: '/ws',
  pid: 42,
  started_at: '2026-12-01T10:00:00',
  uptime_seconds: 3,
  status: 'running',
  output_preview: 'compiling\nready on :5173\n',
  ...over,
});

describe('hermes-process-list', () => {
  let fetch: ReturnType<typeof stubFetch> | undefined;
  afterEach(() => {
    fetch?.restore();
    fetch = undefined;
    cleanup();
  });

  it('finds the processes a turn started in its terminal results, and nothing else', () => {
    expect(startedProcessIds([started()])).to.deep.equal([ID]);
    expect(startedProcessIds([started({ args: { command: 'ls' } })]), 'a foreground command').to.deep.equal([]);
    expect(startedProcessIds([started({ result: '{"output": "Background pro' })]), 'a cut result').to.deep.equal([]);
    expect(startedProcessIds([started({ name: 'process' })])).to.deep.equal([]);
    expect(startedProcessIds([started({ result: JSON.stringify({ session_id: '../etc' }) })])).to.deep.equal([]);
  });

  it('shows them under the Activity summary, closed, and follows a running one until it exits', async () => {
    let rows = [proc()];
    fetch = stubFetch({ 'GET /api/session/processes': () => ({ processes: rows }) });
    const el = await fixture<HermesActivity>('hermes-activity', {
      turn: { kind: 'assistant', index: 1, end: 3, text: 'Started.', reasoning: '', tools: [started()], warnings: [] },
      sessionId: 'sess-a',
    });
    const list = () => el.shadowRoot!.querySelector<HermesProcessList>('hermes-process-list');
    const row = () => list()?.shadowRoot?.querySelector<HTMLElement>('[data-role="process-row"]') ?? null;
    await waitFor(() => expect(row()?.dataset.status).to.equal('running'));
    expect(el.shadowRoot!.querySelector('[data-role="activity"]')!.getAttribute('data-open')).to.equal('false');
    expect(row()!.textContent).to.contain('npm run dev').and.contain('running · pid 42').and.contain('ready on :5173');
    expect(fetch.calls[0]!.url).to.contain('session_id=sess-a');
    rows = [proc({ status: 'exited', exit_code: -15, completion_reason: 'killed' })];
    await waitFor(() => expect(row()?.dataset.status).to.equal('exited'), 5000);
    expect(row()!.textContent).to.contain('exited -15 (killed)');
    const asked = fetch.calls.length;
    await new Promise((r) => setTimeout(r, 2500));
    expect(fetch.calls.length, 'an exited process is not asked about again').to.equal(asked);
  });

  it('says when the server no longer tracks a process', async () => {
    fetch = stubFetch({ 'GET /api/session/processes': { processes: [] } });
    const el = await fixture<HermesProcessList>('hermes-process-list', { sessionId: 'sess-b', ids: [ID] });
    await waitFor(() => expect(el.shadowRoot!.querySelector<HTMLElement>('[data-role="process-row"]')?.dataset.status).to.equal('gone'));
    expect(el.shadowRoot!.textContent).to.contain('no longer tracked');
  });
});
