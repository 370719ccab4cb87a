import { expect, cleanup, stubFetch, waitFor } from '../helpers.js';
import { mountWith, session } from '../workspace/providers.js';
import '../../../components/panels/todos/hermes-todos-panel.js';
import type { HermesTodosPanel } from '../../../components/panels/todos/hermes-todos-panel.js';
import { runHandlers } from '../../../components/state/run-handlers.js';
import { emptyAssistantTurn } from '../../../components/state/turns.js';
import type { ChatStore } from '../../../components/state/chat-store.js';

const TODOS = [
  { id: '1', content: 'Read the logs', status: 'completed' },
  { id: '2', content: 'Fix the bug', status: 'in_progress' },
  { id: '3', content: 'Write the test', status: 'pending' },
  { id: '4', content: 'Rewrite it all', status: 'cancelled' },
];
const summary = (todos: { status: string }[]) => ({
  total: todos.length,
  pending: todos.filter((t) => t.status === 'pending').length,
  in_progress: todos.filter((t) => t.status === 'in_progress').length,
  completed: todos.filter((t) => t.status === 'completed').length,
  cancelled: todos.filter((t) => t.status === 'cancelled').length,
});

const items = (el: HTMLElement) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[data-role="todo-item"]')];

/** A `todo_state` event as the stream delivers it, through the chat store's own handler. */
function todoEvent(chat: ChatStore, todos: typeof TODOS) {
  const handlers = runHandlers(chat, () => emptyAssistantTurn(0), {
    frame: () => {},
    now: () => chat.dispatchEvent(new Event('change')),
    settle: () => {},
  });
  handlers.todo_state({ todos: todos as never, summary: summary(todos), version: 1 });
}

describe('hermes-todos-panel', () => {
  let fetch: ReturnType<typeof stubFetch>;
  beforeEach(() => {
    sessionStorage.clear();
    fetch = stubFetch({
      'GET /api/session': (call) => {
        const id = new URL(call.url, location.href).searchParams.get('session_id');
        return {
          session: { ...session(id!), title: `Session ${id}`, todo_state: id === 's1' ? { todos: TODOS, summary: summary(TODOS), version: 1 } : undefined },
        };
      },
    });
  });
  afterEach(() => {
    fetch.restore();
    cleanup();
  });

  it('says so when no conversation is open', async () => {
    const { el } = await mountWith<HermesTodosPanel>('hermes-todos-panel');
    expect(el.shadowRoot!.querySelector('[data-role="panel"]')!.getAttribute('data-panel')).to.equal('todos');
    expect(el.shadowRoot!.querySelector('[data-role="todo-empty"]')!.textContent).to.contain('Open a conversation');
    expect(items(el)).to.have.length(0);
  });

  it("shows the open session's list with each item's status, and follows the chat to another session", async () => {
    const { el, chat } = await mountWith<HermesTodosPanel>('hermes-todos-panel');
    await chat.open('s1');
    await waitFor(() => items(el).length === 4);
    expect(items(el).map((i) => [i.dataset.status, i.querySelector('.content')!.textContent, i.querySelector('.status')!.textContent])).to.deep.equal([
      ['completed', 'Read the logs', 'Done'],
      ['in_progress', 'Fix the bug', 'In progress'],
      ['pending', 'Write the test', 'Pending'],
      ['cancelled', 'Rewrite it all', 'Cancelled'],
    ]);
    expect(el.shadowRoot!.querySelector('[data-role="todo-summary"]')!.textContent).to.equal('1 of 4 done');
    expect(getComputedStyle(items(el)[3]!.querySelector('.content')!).textDecorationLine).to.equal('line-through');
    // The panel remembers which session it showed (a reload here opens it again).
    expect(JSON.parse(sessionStorage.getItem('hermes:panel:todos')!)).to.deep.equal({ session: 's1' });

    await chat.open('s2');
    await waitFor(() => !!el.shadowRoot!.querySelector('[data-role="todo-empty"]'));
    expect(items(el)).to.have.length(0);
    expect(el.shadowRoot!.querySelector('[data-role="todo-empty"]')!.textContent).to.contain('No todos in this conversation yet');
    await chat.open(null);
    await waitFor(() => el.shadowRoot!.querySelector('[data-role="todo-empty"]')!.textContent!.includes('Open a conversation'));
  });

  it('updates live as todo_state events arrive during a turn', async () => {
    const { el, chat } = await mountWith<HermesTodosPanel>('hermes-todos-panel');
    await chat.open('s2');
    await waitFor(() => !!el.shadowRoot!.querySelector('[data-role="todo-empty"]'));
    todoEvent(chat, [{ id: 'a', content: 'Plan', status: 'in_progress' }]);
    await waitFor(() => items(el).length === 1);
    expect(items(el)[0]!.dataset.status).to.equal('in_progress');
    todoEvent(chat, [
      { id: 'a', content: 'Plan', status: 'completed' },
      { id: 'b', content: 'Build', status: 'in_progress' },
    ]);
    await waitFor(() => items(el).length === 2);
    expect(items(el).map((i) => i.dataset.status)).to.deep.equal(['completed', 'in_progress']);
    // A cleared list is an empty list again.
    todoEvent(chat, []);
    await waitFor(() => items(el).length === 0);
  });

  it('shows what it can of a list an older writer stored (odd entries are left out)', async () => {
    const { el, chat } = await mountWith<HermesTodosPanel>('hermes-todos-panel', { session: session('s3') });
    chat.todos = [{ id: 'x', content: 'Kept', status: 'weird' }, null, { id: 'y' }, 'text'] as never;
    chat.dispatchEvent(new Event('change'));
    await waitFor(() => items(el).length === 1);
    expect(items(el)[0]!.dataset.status).to.equal('pending');
  });
});
