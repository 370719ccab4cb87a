import { expect, fixture, cleanup, stubFetch, waitFor } from '../helpers.js';
import type { HermesSubagentTree } from '../../../components/chat/hermes-subagent-tree.js';
import '../../../components/chat/hermes-subagent-tree.js';
import { applySubagentEvent, subagentsFromResult, type SubagentView } from '../../../components/state/subagents.js';
import { groupTurns, type AssistantTurn } from '../../../components/state/turns.js';

const view = (over: Partial<SubagentView>): SubagentView => ({
  session_id: 'c1',
  parent_session_id: 'p',
  stream_id: 's1',
  goal: 'Goal one',
  status: 'running',
  depth: 1,
  task_index: 0,
  tool_count: 0,
  ...over,
});

describe('hermes-subagent-tree', () => {
  afterEach(cleanup);
  const rows = (el: HermesSubagentTree) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-role="subagent"]')];

  it('lists children in task order, nests grandchildren, and says what each is doing', async () => {
    const el = await fixture<HermesSubagentTree>('hermes-subagent-tree', {
      subagents: [
        view({ session_id: 'c2', goal: 'Second', task_index: 1, status: 'completed', tool_count: 2, duration: 1.25 }),
        view({ session_id: 'c1', goal: 'First', tool: 'terminal', tool_count: 1 }),
        view({ session_id: 'g1', parent_session_id: 'c1', goal: 'Grandchild', depth: 2 }),
      ],
    });
    expect(rows(el).map((r) => r.dataset.session)).to.deep.equal(['c1', 'g1', 'c2']);
    const [first, grand, second] = rows(el);
    expect(first!.contains(grand!)).to.equal(true);
    expect(first!.querySelector('[data-role="subagent-meta"]')!.textContent).to.contain('running terminal · 1 tool');
    expect(second!.querySelector('[data-role="subagent-meta"]')!.textContent).to.contain('Done · 2 tools · 1.3s');
    // Only a running child can be cancelled; every child can be opened.
    expect(second!.querySelector('[data-role="subagent-cancel"]')).to.equal(null);
    expect(rows(el).every((r) => r.querySelector('[data-role="subagent-open"]'))).to.equal(true);
  });

  it('Open asks the app to open the child session; Cancel cancels its run', async () => {
    const fetch = stubFetch({ 'POST /api/chat/cancel': { ok: true, cancelled: true } });
    try {
      const el = await fixture<HermesSubagentTree>('hermes-subagent-tree', { subagents: [view({ session_id: 'c9', stream_id: 'run9' })] });
      let opened: string | null = null;
      document.addEventListener('hermes-open-session', (e) => (opened = (e as CustomEvent).detail.sessionId), { once: true });
      el.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="subagent-open"]')!.click();
      expect(opened).to.equal('c9');
      el.shadowRoot!.querySelector<HTMLButtonElement>('[data-role="subagent-cancel"]')!.click();
      await waitFor(() => fetch.calls.some((c) => c.url.endsWith('/api/chat/cancel')));
      expect(fetch.calls.find((c) => c.url.endsWith('/api/chat/cancel'))!.body).to.deep.equal({ stream_id: 'run9' });
    } finally {
      fetch.restore();
    }
  });
});

describe('subagent rows', () => {
  it('a subagent event adds a row, and a later one for the same child replaces it', () => {
    const base = { parent_session_id: 'p', session_id: 'c1', stream_id: 's', task_index: 0, task_count: 1, goal: 'G', depth: 1, tool_count: 0 };
    let list = applySubagentEvent([], { ...base, event_type: 'subagent.start', status: 'running' });
    list = applySubagentEvent(list, { ...base, event_type: 'subagent.complete', status: 'completed', tool_count: 3, summary: 'ok', duration_seconds: 2 });
    expect(list).to.have.length(1);
    expect(list[0]).to.include({ status: 'completed', tool_count: 3, summary: 'ok', duration: 2 });
  });

  it('a stored delegate_task result rebuilds the tree after a reload', () => {
    const result = JSON.stringify({
      results: [
        { task_index: 0, status: 'completed', summary: 'A', session_id: 'ca', tool_trace: [{ tool: 'read_file' }] },
        { task_index: 1, status: 'interrupted', summary: null, session_id: 'cb', tool_trace: [] },
      ],
      total_duration_seconds: 3,
    });
    const args = { tasks: [{ goal: 'Alpha' }, { goal: 'Beta' }] };
    expect(subagentsFromResult(args, result, '').map((s) => [s.session_id, s.goal, s.status, s.tool_count])).to.deep.equal([
      ['ca', 'Alpha', 'completed', 1],
      ['cb', 'Beta', 'interrupted', 0],
    ]);
    const turns = groupTurns([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'd1', type: 'function', function: { name: 'delegate_task', arguments: JSON.stringify(args) } }] },
      { role: 'tool', tool_call_id: 'd1', name: 'delegate_task', content: result },
      { role: 'assistant', content: 'done' },
    ]);
    expect((turns[1] as AssistantTurn).subagents!.map((s) => s.session_id)).to.deep.equal(['ca', 'cb']);
    // An error result (no results array) adds no rows.
    expect(subagentsFromResult({ goal: 'x' }, JSON.stringify({ error: 'Too many tasks' }), '')).to.deep.equal([]);
  });
});
