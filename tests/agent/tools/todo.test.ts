import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { todoTool } from '../../../src/agent/tools/todo.js';
import { fakeContext, parse, sandbox, type Sandbox } from './helpers.js';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

describe('todo', () => {
  it('reads an empty list without emitting', async () => {
    const f = fakeContext(box);
    expect(parse(await todoTool.run({}, f.ctx))).toEqual({ todos: [], summary: { total: 0, pending: 0, in_progress: 0, completed: 0, cancelled: 0 } });
    expect(f.emits).toEqual([]);
  });

  it('replaces the list, stores it and emits todo_state', async () => {
    const f = fakeContext(box);
    const todos = [
      { id: '1', content: 'Read the code', status: 'in_progress' },
      { id: '2', content: 'Write tests', status: 'pending' },
    ];
    const r = parse(await todoTool.run({ todos }, f.ctx));
    const summary = { total: 2, pending: 1, in_progress: 1, completed: 0, cancelled: 0 };
    expect(r).toEqual({ todos, summary });
    expect(f.todos).toEqual(todos);
    expect(f.emits).toEqual([{ event: 'todo_state', data: { todos, summary, version: 1 } }]);

    // Without merge the new list replaces the old one entirely.
    const r2 = parse(await todoTool.run({ todos: [{ id: '9', content: 'Fresh plan', status: 'pending' }] }, f.ctx));
    expect(r2.todos).toEqual([{ id: '9', content: 'Fresh plan', status: 'pending' }]);
    expect(f.emits).toHaveLength(2);
  });

  it('merges by id: updates fields given, keeps order, appends new items', async () => {
    const f = fakeContext(box);
    f.todos = [
      { id: 'a', content: 'First', status: 'in_progress' },
      { id: 'b', content: 'Second', status: 'pending' },
    ];
    const r = parse(
      await todoTool.run(
        {
          merge: true,
          todos: [
            { id: 'a', status: 'completed' },
            { id: 'c', content: 'Third', status: 'pending' },
            { id: 'b', content: 'Second, revised' },
          ],
        },
        f.ctx,
      ),
    );
    expect(r.todos).toEqual([
      { id: 'a', content: 'First', status: 'completed' },
      { id: 'b', content: 'Second, revised', status: 'pending' },
      { id: 'c', content: 'Third', status: 'pending' },
    ]);
    expect(r.summary).toEqual({ total: 3, pending: 2, in_progress: 0, completed: 1, cancelled: 0 });
    expect(f.emits[0]?.data.todos).toEqual(r.todos);
  });

  it('does not emit when a merge changes nothing', async () => {
    const f = fakeContext(box);
    f.todos = [{ id: 'a', content: 'First', status: 'pending' }];
    await todoTool.run({ merge: 'true', todos: [{ id: 'a', status: 'pending' }] }, f.ctx);
    expect(f.emits).toEqual([]);
  });

  it('rejects invalid items and leaves the list alone', async () => {
    const f = fakeContext(box);
    f.todos = [{ id: 'a', content: 'First', status: 'pending' }];
    expect(parse(await todoTool.run({ todos: [{ id: 'x', content: 'c', status: 'done' }] }, f.ctx)).error).toMatch(
      /status 'done'.*pending, in_progress, completed, cancelled/,
    );
    expect(parse(await todoTool.run({ todos: [{ content: 'no id', status: 'pending' }] }, f.ctx)).error).toMatch(/needs an id/);
    expect(parse(await todoTool.run({ todos: [{ id: 'y', status: 'pending' }] }, f.ctx)).error).toMatch(/needs content/);
    expect(parse(await todoTool.run({ merge: true, todos: [{ id: 'zz', status: 'completed' }] }, f.ctx)).error).toMatch(/No todo with id 'zz'/);
    expect(parse(await todoTool.run({ todos: 'not a list' }, f.ctx)).error).toMatch(/must be an array/);
    expect(f.todos).toEqual([{ id: 'a', content: 'First', status: 'pending' }]);
    expect(f.emits).toEqual([]);
  });
});
