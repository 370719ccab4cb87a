import { bool, json, str, toolError } from './args.js';
import type { TodoItem, Tool, ToolContext } from './types.js';

const STATUSES: ReadonlyArray<TodoItem['status']> = ['pending', 'in_progress', 'completed', 'cancelled'];

export function todoSummary(todos: TodoItem[]): Record<'total' | TodoItem['status'], number> {
  const summary = { total: todos.length, pending: 0, in_progress: 0, completed: 0, cancelled: 0 };
  for (const t of todos) summary[t.status]++;
  return summary;
}

interface Update {
  id: string;
  content?: string;
  status?: TodoItem['status'];
}

/** Validates the model's items; an update in merge mode may omit content or status. */
function parseItems(raw: unknown[], merge: boolean): Update[] | string {
  const items: Update[] = [];
  for (const [i, value] of raw.entries()) {
    if (!value || typeof value !== 'object') return `todos[${i}] must be an object {id, content, status}`;
    const v = value as Record<string, unknown>;
    const id = str(v.id)?.trim();
    if (!id) return `todos[${i}] needs an id`;
    const item: Update = { id };
    const content = str(v.content);
    if (content?.trim()) item.content = content.trim();
    else if (!merge) return `todos[${i}] (${id}) needs content`;
    if (v.status !== undefined && v.status !== null) {
      const status = str(v.status) as TodoItem['status'];
      if (!STATUSES.includes(status)) return `todos[${i}] (${id}) has status '${String(v.status)}'; use one of ${STATUSES.join(', ')}`;
      item.status = status;
    }
    items.push(item);
  }
  return items;
}

function apply(current: TodoItem[], updates: Update[], merge: boolean): TodoItem[] | string {
  const next = merge ? current.map((t) => ({ ...t })) : [];
  for (const u of updates) {
    const existing = next.find((t) => t.id === u.id);
    if (existing) {
      // A repeated id in one call updates the item it already named (last write wins).
      if (u.content !== undefined) existing.content = u.content;
      if (u.status !== undefined) existing.status = u.status;
    } else if (u.content === undefined) {
      return `No todo with id '${u.id}' to update; give content to add it`;
    } else {
      next.push({ id: u.id, content: u.content, status: u.status ?? 'pending' });
    }
  }
  return next;
}

function answer(todos: TodoItem[]): string {
  return json({ todos, summary: todoSummary(todos) });
}

export const todoTool: Tool = {
  spec: {
    name: 'todo',
    description:
      'Manage your task list for the current session. Use for complex tasks with 3+ steps or when the user provides multiple tasks. ' +
      'Call with no parameters to read the current list.\n\n' +
      "Writing:\n- Provide 'todos' array to create/update items\n- merge=false (default): replace the entire list with a fresh plan\n" +
      '- merge=true: update existing items by id, add any new ones\n\n' +
      'Each item: {id: string, content: string, status: pending|in_progress|completed|cancelled}\n' +
      'List order is priority. Only ONE item in_progress at a time. Mark items completed immediately when done. ' +
      'If something fails, cancel it and add a revised item.\n\nAlways returns the full current list.',
    parameters: {
      type: 'object',
      properties: {
        todos: {
          type: 'array',
          description: 'Task items to write. Omit to read the current list.',
          items: {
            type: 'object',
            properties: {
              id: { type: 'string', description: 'Unique item identifier' },
              content: { type: 'string', description: 'Task description' },
              status: { type: 'string', enum: [...STATUSES], description: 'Current status' },
            },
            required: ['id', 'content', 'status'],
          },
        },
        merge: { type: 'boolean', description: 'true: update existing items by id, add new ones. false (default): replace the entire list.', default: false },
      },
      required: [],
    },
  },
  async run(args, ctx: ToolContext) {
    const current = ctx.todos.get();
    if (args.todos === undefined || args.todos === null) return answer(current);
    if (!Array.isArray(args.todos)) return toolError('todos must be an array of {id, content, status}');
    const merge = bool(args.merge, false);
    const updates = parseItems(args.todos, merge);
    if (typeof updates === 'string') return toolError(updates);
    const next = apply(current, updates, merge);
    if (typeof next === 'string') return toolError(next);
    if (JSON.stringify(next) !== JSON.stringify(current)) {
      ctx.todos.set(next);
      ctx.emit('todo_state', { todos: next, summary: todoSummary(next), version: 1 });
    }
    return answer(next);
  },
};
