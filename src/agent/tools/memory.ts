import { charLength, errorMessage, json, str } from './args.js';
import { joinPath } from './paths.js';
import type { Tool, ToolContext } from './types.js';

/** Hermes' limits: memory is injected into every prompt, so it stays small. */
export const MEMORY_LIMITS = { memory: 2200, user: 1375 } as const;
type Target = keyof typeof MEMORY_LIMITS;
const FILES: Record<Target, string> = { memory: 'MEMORY.md', user: 'USER.md' };
const SEPARATOR = '\n§\n';
/** Invisible characters can smuggle instructions into every future prompt. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/;

/** Entries of a memory file: blocks between lines that hold only `§`. */
export function parseEntries(text: string): string[] {
  const entries: string[] = [];
  let block: string[] = [];
  const flush = () => {
    const entry = block.join('\n').trim();
    if (entry) entries.push(entry);
    block = [];
  };
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '§') flush();
    else block.push(line);
  }
  flush();
  return entries;
}

export function memoryUsage(entries: string[], limit: number): string {
  const used = charLength(entries.join(SEPARATOR));
  return `${Math.round((used / limit) * 100)}% — ${used.toLocaleString('en-US')}/${limit.toLocaleString('en-US')} chars`;
}

const fits = (entries: string[], limit: number) => charLength(entries.join(SEPARATOR)) <= limit;

/** Calls on one file run one after another: parallel tool calls must not lose each other's edits. */
const queues = new Map<string, Promise<unknown>>();
function serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(fn, fn);
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

async function archive(ctx: ToolContext, target: Target, evicted: string[]): Promise<void> {
  const path = joinPath(ctx.hermesHome, 'memories/ARCHIVE.jsonl');
  const at = new Date().toISOString();
  const existing = (await ctx.host.readText(path)) ?? '';
  const lines = evicted.map((content) => JSON.stringify({ target, content, reason: 'evicted', archived_at: at }));
  await ctx.host.writeText(path, existing + (existing && !existing.endsWith('\n') ? '\n' : '') + lines.join('\n') + '\n');
}

/** The unique entry containing `oldText`, or an error message. */
function findUnique(entries: string[], oldText: string): number | string {
  const hits = entries.flatMap((e, i) => (e.includes(oldText) ? [i] : []));
  if (hits.length === 1) return hits[0] as number;
  if (hits.length === 0) return `No entry contains old_text '${oldText}'`;
  const previews = hits.map((i) => `"${(entries[i] ?? '').slice(0, 60)}"`).join(', ');
  return `old_text matches ${hits.length} entries (${previews}); use a longer, unique substring`;
}

async function change(ctx: ToolContext, action: string, target: Target, content: string, oldText: string): Promise<string> {
  const limit = MEMORY_LIMITS[target];
  const path = joinPath(ctx.hermesHome, `memories/${FILES[target]}`);
  const entries = parseEntries((await ctx.host.readText(path)) ?? '');
  const fail = (error: string) => json({ success: false, error, target, usage: memoryUsage(entries, limit), entries: entries.length });

  let next: string[];
  let message: string;
  const evicted: string[] = [];
  if (action === 'add') {
    if (entries.includes(content)) return fail('This exact entry already exists; nothing added');
    if (charLength(content) > limit) return fail(`The entry is ${charLength(content)} chars, over the ${limit}-char limit of ${FILES[target]}; shorten it`);
    next = [...entries, content];
    // The oldest entries make room for the newest; they go to the archive, not away.
    while (!fits(next, limit)) evicted.push(next.shift() as string);
    message = evicted.length
      ? `Entry added; ${evicted.length} oldest entr${evicted.length === 1 ? 'y' : 'ies'} moved to ARCHIVE.jsonl to stay within the limit`
      : 'Entry added';
  } else {
    const index = findUnique(entries, oldText);
    if (typeof index === 'string') return fail(index);
    next = [...entries];
    if (action === 'replace') {
      if (next.some((e, i) => i !== index && e === content)) return fail('Another entry already says exactly this');
      next[index] = content;
      if (!fits(next, limit)) return fail(`The replacement would put ${FILES[target]} over its ${limit}-char limit; shorten it or remove entries`);
      message = 'Entry replaced';
    } else {
      next.splice(index, 1);
      message = 'Entry removed';
    }
  }
  if (evicted.length) await archive(ctx, target, evicted);
  await ctx.host.writeText(path, next.length ? next.join(SEPARATOR) + '\n' : '');
  return json({
    success: true,
    target,
    message,
    usage: memoryUsage(next, limit),
    entries: next.length,
    ...(evicted.length ? { evicted: evicted.length } : {}),
  });
}

export const memoryTool: Tool = {
  spec: {
    name: 'memory',
    description:
      'Save durable facts to persistent memory that survives across sessions. Memory is injected into future sessions, so keep entries compact and high-signal. ' +
      `Targets: 'memory' (your own notes: environment facts, conventions, lessons; ${MEMORY_LIMITS.memory} chars) and ` +
      `'user' (who the user is, their preferences; ${MEMORY_LIMITS.user} chars). ` +
      'Actions: add (new entry; when full, the oldest entries are archived), replace (entry containing old_text gets content), remove (entry containing old_text). ' +
      'old_text must be a unique substring of one entry. Changes persist immediately and appear in the system prompt from the next session.',
    parameters: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['add', 'replace', 'remove'], description: 'What to do' },
        target: { type: 'string', enum: ['memory', 'user'], description: "'memory' for your notes, 'user' for the user profile" },
        content: { type: 'string', description: 'The entry text (add, replace)' },
        old_text: { type: 'string', description: 'A unique substring of the entry to change (replace, remove)' },
      },
      required: ['action', 'target'],
    },
  },
  async run(args, ctx) {
    const action = str(args.action);
    const target = str(args.target);
    if (action !== 'add' && action !== 'replace' && action !== 'remove') return json({ success: false, error: "action must be 'add', 'replace' or 'remove'" });
    if (target !== 'memory' && target !== 'user') return json({ success: false, error: "target must be 'memory' or 'user'" });
    const content = (str(args.content) ?? '').trim();
    const oldText = str(args.old_text) ?? '';
    if (action !== 'remove') {
      if (!content) return json({ success: false, error: `content is required for ${action}` });
      if (content.split(/\r?\n/).some((l) => l.trim() === '§'))
        return json({ success: false, error: "content must not contain a line with only '§' (the entry separator)" });
      if (INVISIBLE.test(content)) return json({ success: false, error: 'content contains invisible Unicode characters' });
    }
    if (action !== 'add' && !oldText.trim()) return json({ success: false, error: `old_text is required for ${action}` });
    try {
      return await serialized(`${ctx.hermesHome}\0${target}`, () => change(ctx, action, target, content, oldText));
    } catch (err) {
      return json({ success: false, error: `Memory update failed: ${errorMessage(err)}` });
    }
  },
};
