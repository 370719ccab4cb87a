import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { deriveTodoState } from '../../src/domain/todo-state.js';

const todoCall = (id: string, todos: unknown[], merge = false) => ({ toolCall: { id, name: 'todo', args: { todos, merge } } });

describe('todos: restored with the session', () => {
  let t: ChatHarness;
  beforeEach(async () => {
    t = await makeChatApp({ storage: 'fs' });
  });
  afterEach(async () => t.close());

  it('GET /api/session gives back the last todo list the turns wrote, even outside the message window', async () => {
    const sid = await t.newSession();
    t.model.enqueue(
      [
        todoCall('t1', [
          { id: '1', content: 'Read the logs', status: 'in_progress' },
          { id: '2', content: 'Fix the bug', status: 'pending' },
        ]),
      ],
      [
        todoCall(
          't2',
          [
            { id: '1', content: 'Read the logs', status: 'completed' },
            { id: '2', status: 'in_progress' },
          ],
          true,
        ),
      ],
      [{ text: 'Working on it.' }],
    );
    await t.stream((await t.start(sid, 'plan it')).body.stream_id);
    const expected = [
      { id: '1', content: 'Read the logs', status: 'completed' },
      { id: '2', content: 'Fix the bug', status: 'in_progress' },
    ];
    const full = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(full.todo_state).toMatchObject({ todos: expected, summary: { total: 2, completed: 1, in_progress: 1, pending: 0, cancelled: 0 }, version: 1 });
    expect(full.todo_state.ts).toBeGreaterThan(0);
    // The page's first window holds only the last message: the list comes from the whole transcript.
    const windowed = (await t.call('GET', `/api/session?session_id=${sid}&msg_limit=1`)).body.session;
    expect(windowed.messages).toHaveLength(1);
    expect(windowed.todo_state.todos).toEqual(expected);
  });

  it('a session the agent wrote elsewhere (no stored todo_state) gets its list from its tool messages; a later empty list wins', async () => {
    const todos = [{ id: 'a', content: 'Draft', status: 'pending' }];
    const messages = [
      { role: 'user', content: 'plan', timestamp: 100 },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'todo', arguments: '{}' } }], timestamp: 101 },
      { role: 'tool', tool_call_id: 'c1', content: JSON.stringify({ todos, summary: { total: 1, pending: 1 } }), timestamp: 102 },
      { role: 'assistant', content: 'Planned.', timestamp: 103 },
    ];
    const imported = await t.call('POST', '/api/session/import', { messages, title: 'from the CLI' });
    expect(imported.status).toBe(200);
    const sid = imported.body.session.session_id;
    const one = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(one.todo_state).toEqual({ todos, summary: { total: 1, pending: 1 }, version: 1, ts: 102 });
    // Asked without messages, the answer stays light: no transcript scan.
    expect((await t.call('GET', `/api/session?session_id=${sid}&messages=0`)).body.session.todo_state).toBeUndefined();

    const cleared = [...messages, { role: 'tool', tool_call_id: 'c2', content: '{"todos": [], "summary": {"total": 0}}' }];
    const again = await t.call('POST', '/api/session/import', { messages: cleared });
    const two = (await t.call('GET', `/api/session?session_id=${again.body.session.session_id}`)).body.session;
    // Cleared last: empty, dated no earlier than what came before it.
    expect(two.todo_state).toEqual({ todos: [], summary: { total: 0 }, version: 1, ts: 103 });
  });

  it('a session that never used the todo tool has no list', async () => {
    const sid = await t.newSession();
    expect((await t.call('GET', `/api/session?session_id=${sid}`)).body.session.todo_state).toBeUndefined();
  });
});

describe('deriveTodoState', () => {
  it('skips tool results that are not todo writes: other JSON, broken JSON, content parts', () => {
    const hit = { role: 'tool', content: '{"todos": [{"id": "1", "content": "x", "status": "pending"}]}', timestamp: 5 };
    expect(
      deriveTodoState([
        hit,
        { role: 'tool', content: '{"todos": "not a list"}' },
        { role: 'tool', content: '{"todos": [' },
        { role: 'tool', content: [{ type: 'text', text: '{"todos": []}' }] },
        { role: 'assistant', content: '{"todos": []}' },
      ]),
    ).toEqual({ todos: [{ id: '1', content: 'x', status: 'pending' }], summary: {}, version: 1, ts: 5 });
    expect(deriveTodoState([{ role: 'user', content: 'hi' }])).toBeNull();
  });
});
