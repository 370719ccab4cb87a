import { expect, fixture, cleanup, nextFrame } from '../helpers.js';
import type { HermesSessionList } from '../../../components/sidebar/hermes-session-list.js';
import '../../../components/sidebar/hermes-session-list.js';
import { foldSubagents } from '../../../components/sidebar/subagent-fold.js';
import { ago, row } from './setup.js';

const child = (id: string, parent: string, updated = ago(1)) =>
  row(id, { title: id, parent_session_id: parent, session_source: 'subagent', updated_at: updated });
const ROWS = [
  row('p', { title: 'Parent', updated_at: ago(2) }),
  child('c1', 'p'),
  child('c2', 'p'),
  child('lost', 'gone'),
  row('fork', { parent_session_id: 'p', updated_at: ago(3) }),
];

const ids = (list: HermesSessionList) => [...list.shadowRoot!.querySelectorAll<HTMLElement>('[data-role="session-row"]')].map((r) => r.dataset.sessionId);
const inRow = (list: HermesSessionList, id: string, role: string) =>
  list.shadowRoot!.querySelector(`[data-session-id="${id}"]`)!.shadowRoot!.querySelector(`[data-role="${role}"]`);

describe('subagent rows in the session list', () => {
  afterEach(cleanup);

  it('folds children under a listed parent; a fork or an orphan stays a row of its own', () => {
    const folded = foldSubagents(ROWS, null);
    expect(folded.map((r) => r.session_id)).to.deep.equal(['p', 'lost', 'fork']);
    expect(folded[0]!.subagent_count).to.equal(2);
    // No subagents: the same array, so the list need not re-bucket.
    const plain = [row('a'), row('b')];
    expect(foldSubagents(plain, null)).to.equal(plain);
  });

  it('draws the count on the parent, the open child nested, and every match while searching', async () => {
    const list = await fixture<HermesSessionList>('hermes-session-list', { rows: ROWS });
    list.style.height = '400px';
    await nextFrame();
    await list.updateComplete;
    // Newest first, as every row: the orphan child is newer than the parent.
    expect(ids(list)).to.deep.equal(['lost', 'p', 'fork']);
    expect(inRow(list, 'p', 'subagent-count')!.textContent).to.contain('2');

    list.activeId = 'c2';
    await list.updateComplete;
    expect(ids(list)).to.include('c2');
    expect(inRow(list, 'c2', 'subagent-nested')).to.not.equal(null);

    list.activeId = null;
    list.query = 'c';
    await list.updateComplete;
    expect(ids(list)).to.have.members(['p', 'c1', 'c2', 'lost', 'fork']);
  });
});
