import type { MemoryConfig } from '../config.js';
import { charLength, errorMessage, json, str } from './args.js';
import {
  DEFAULT_MEMORY_CONFIG,
  INVISIBLE,
  MEMORY_FILES,
  type MemoryTarget,
  limitFor,
  memoryUsage,
  parseEntries,
  serializeEntries,
  usageShort,
  usedChars,
} from './memory-store.js';
import { joinPath } from './paths.js';
import type { Tool, ToolContext } from './types.js';

export { memoryUsage, parseEntries, renderMemorySnapshot } from './memory-store.js';

type Action = 'add' | 'replace' | 'remove';
interface Op {
  action: Action;
  content: string;
  oldText: string;
}
type Result = Record<string, unknown>;

/**
 * Calls on one file run one after another: parallel tool calls — and the Memory panel's saves
 * (`withMemoryFile`) — must not lose each other's edits.
 */
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

/** Runs `fn` in the same queue as the memory tool's calls on that home's file (`soul` too: SOUL.md). */
export const withMemoryFile = <T>(hermesHome: string, target: MemoryTarget | 'soul', fn: () => Promise<T>): Promise<T> =>
  serialized(`${hermesHome}\0${target}`, fn);

/**
 * Refusals that ask the model to consolidate, counted per turn (a turn has its own abort
 * signal). After three in a row the answer stops asking for another try, so a memory side
 * effect cannot eat the turn's budget (Hermes caps it the same way); a success resets it.
 */
const MAX_CONSOLIDATION_FAILURES = 3;
const consolidationFailures = new WeakMap<AbortSignal, number>();
function counted(signal: AbortSignal, result: Result): Result {
  if (result.success) {
    consolidationFailures.delete(signal);
    return result;
  }
  if (!('current_entries' in result)) return result;
  const failures = (consolidationFailures.get(signal) ?? 0) + 1;
  consolidationFailures.set(signal, failures);
  if (failures <= MAX_CONSOLIDATION_FAILURES) return result;
  return {
    success: false,
    done: true,
    error: `Memory consolidation failed ${failures} times this turn. Stop calling memory for now, leave it as it is and go on with your reply; the fact can be saved in a later turn.`,
  };
}

/** What is wrong with new entry text, or null. */
function contentProblem(content: string): string | null {
  if (content.split(/\r?\n/).some((l) => l.trim() === '§')) return "content must not contain a line with only '§' (the entry separator)";
  if (INVISIBLE.test(content)) return 'content contains invisible Unicode characters';
  return null;
}

const preview = (e: string) => ([...e].length > 80 ? `${[...e].slice(0, 80).join('')}...` : e);

/** Index of the one entry containing `oldText` (identical repeats count as one), or why not. */
function match(entries: string[], oldText: string): number | { none: true } | { many: string[] } {
  const hits = entries.flatMap((e, i) => (e.includes(oldText) ? [i] : []));
  if (!hits.length) return { none: true };
  if (new Set(hits.map((i) => entries[i])).size > 1) return { many: hits.map((i) => preview(entries[i]!)) };
  return hits[0]!;
}

class MemoryFile {
  /** Whether this call changed the file (the open UI is told: `state_saved`). */
  written = false;
  constructor(
    private readonly ctx: ToolContext,
    readonly target: MemoryTarget,
    readonly limit: number,
  ) {}
  get path() {
    return joinPath(this.ctx.hermesHome, `memories/${MEMORY_FILES[this.target]}`);
  }
  async read(): Promise<string[]> {
    return parseEntries((await this.ctx.host.readText(this.path)) ?? '');
  }
  async write(entries: string[]): Promise<void> {
    await this.ctx.host.writeText(this.path, serializeEntries(entries));
    this.written = true;
  }
  done(entries: string[], message: string): Result {
    // Terminal on purpose (as Hermes): no entry list, so the model does not go looking for more to change.
    return {
      success: true,
      done: true,
      target: this.target,
      usage: memoryUsage(entries, this.limit),
      entry_count: entries.length,
      message,
      note: 'Saved. This update is complete; do not repeat it.',
    };
  }
  /** A refusal that shows the live entries, so the model can consolidate in the same turn. */
  refuse(entries: string[], error: string): Result {
    return { success: false, error, current_entries: entries, usage: usageShort(entries, this.limit) };
  }
}

async function single(file: MemoryFile, op: Op): Promise<Result> {
  const entries = await file.read();
  const { limit } = file;
  if (op.action === 'add') {
    if (entries.includes(op.content)) return file.done(entries, 'This entry already exists; nothing was added.');
    const next = [...entries, op.content];
    if (usedChars(next) > limit)
      // No silent eviction: the model chooses what to merge or drop.
      return file.refuse(
        entries,
        `Memory is at ${usageShort(entries, limit)} chars and this entry (${charLength(op.content)} chars) would go over the limit. ` +
          "Make room now: 'replace' overlapping entries with shorter merged ones or 'remove' stale ones (current_entries below), " +
          'then add it again, all in this turn. One call with operations[] can do both.',
      );
    await file.write(next);
    return file.done(next, 'Entry added.');
  }
  const hit = match(entries, op.oldText);
  if (typeof hit !== 'number') {
    if ('many' in hit)
      return { success: false, error: `Several different entries contain '${op.oldText}'; use a longer, unique part of one.`, matches: hit.many };
    return file.refuse(entries, `No entry contains '${op.oldText}'. Check current_entries below and retry with text from the entry you mean.`);
  }
  const next = [...entries];
  if (op.action === 'remove') {
    next.splice(hit, 1);
    await file.write(next);
    return file.done(next, 'Entry removed.');
  }
  next[hit] = op.content;
  if (usedChars(next) > limit)
    return file.refuse(
      entries,
      `The replacement would put memory at ${usageShort(next, limit)} chars. Shorten it, or 'remove' other stale entries ` +
        '(current_entries below), then retry, all in this turn.',
    );
  await file.write(next);
  return file.done(next, 'Entry replaced.');
}

/** operations[]: applied in order to a copy, checked against the budget once at the end; all or nothing. */
async function batch(file: MemoryFile, ops: Op[]): Promise<Result> {
  const entries = await file.read();
  const working = [...entries];
  const abort = (i: number, op: Op, why: string) =>
    file.refuse(entries, `Operation ${i + 1} (${op.action}): ${why} Nothing was applied (the batch is all or nothing).`);
  for (const [i, op] of ops.entries()) {
    if (op.action === 'add') {
      if (!working.includes(op.content)) working.push(op.content);
      continue;
    }
    const hit = match(working, op.oldText);
    if (typeof hit !== 'number')
      return abort(i, op, 'many' in hit ? `'${op.oldText}' matches several different entries; be more specific.` : `no entry contains '${op.oldText}'.`);
    if (op.action === 'remove') working.splice(hit, 1);
    else working[hit] = op.content;
  }
  if (usedChars(working) > file.limit)
    return file.refuse(
      entries,
      `After all ${ops.length} operations memory would be at ${usageShort(working, file.limit)} chars, over the limit. ` +
        'Remove or shorten more entries in the same batch (current_entries below), then retry.',
    );
  await file.write(working);
  return file.done(working, `Applied ${ops.length} operation(s).`);
}

/** One operation from loose arguments, or the reason it cannot run. */
function readOp(raw: Record<string, unknown>, where: string): Op | string {
  const action = str(raw.action);
  if (action !== 'add' && action !== 'replace' && action !== 'remove') return `${where}unknown action; use add, replace or remove.`;
  const content = (str(raw.content) ?? '').trim();
  const oldText = (str(raw.old_text) ?? '').trim();
  if (action !== 'remove') {
    if (!content) return `${where}content is required for ${action}${action === 'replace' ? " (use action='remove' to delete)" : ''}.`;
    const problem = contentProblem(content);
    if (problem) return `${where}${problem}`;
  }
  if (action !== 'add' && !oldText) return `${where}old_text is required for ${action}: a short unique part of the entry to ${action}.`;
  return { action, content, oldText };
}

const DESCRIPTION =
  'Keep durable facts in persistent memory that outlives this session. Memory is put into the system prompt of every future ' +
  'session, so keep entries short and worth their space.\n\n' +
  "HOW: make all your changes in ONE call with an 'operations' array (items: {action, content?, old_text?}). The batch is " +
  'applied together and the character limit is checked only on the result, so one call can remove or shorten stale entries ' +
  'and add new ones even when the add alone would not fit. Use the single action/content/old_text fields only for one lone change.\n\n' +
  'WHEN: save when the user states a preference, a correction or a personal detail, or you learn a stable fact about their ' +
  'environment, conventions or workflow. User preferences and corrections first, then environment facts, then procedures.\n\n' +
  'IF FULL: an add is refused and the current entries are shown. Send one batch that removes or merges enough and adds the new entry.\n\n' +
  "TARGETS: 'user' = who the user is (name, role, preferences, style). 'memory' = your own notes (environment, conventions, " +
  'tool quirks, lessons).\n\n' +
  'SKIP: trivial or easily rediscovered facts, raw data, task progress and logs of finished work. ' +
  'Changes are saved at once and appear in the system prompt from the next session.';

/** Hermes' `memory` tool with the configured character limits (`memory.memory_char_limit`, `memory.user_char_limit`). */
export function createMemoryTool(config: MemoryConfig = DEFAULT_MEMORY_CONFIG): Tool {
  return {
    spec: {
      name: 'memory',
      description: `${DESCRIPTION} Limits: 'memory' ${config.memoryCharLimit} chars, 'user' ${config.userCharLimit} chars.`,
      parameters: {
        type: 'object',
        properties: {
          action: { type: 'string', enum: ['add', 'replace', 'remove'], description: "The action (single-change form). Leave out when using 'operations'." },
          target: { type: 'string', enum: ['memory', 'user'], description: "Which store: 'memory' for your notes, 'user' for the user profile." },
          content: { type: 'string', description: "The entry text. Required for 'add' and 'replace' (single-change form)." },
          old_text: { type: 'string', description: "Required for 'replace' and 'remove' (single-change form): a short unique part of the entry to change." },
          operations: {
            type: 'array',
            description:
              'Batch form: operations applied together in one call and checked against the limit once at the end. Prefer it for several changes or to make room.',
            items: {
              type: 'object',
              properties: {
                action: { type: 'string', enum: ['add', 'replace', 'remove'] },
                content: { type: 'string', description: 'Entry text for add/replace.' },
                old_text: { type: 'string', description: 'Part of the entry to replace/remove.' },
              },
              required: ['action'],
            },
          },
        },
        required: ['target'],
      },
    },
    async run(args, ctx) {
      const target = str(args.target) ?? 'memory';
      if (target !== 'memory' && target !== 'user') return json({ success: false, error: `Invalid target '${target}'. Use 'memory' or 'user'.` });
      const file = new MemoryFile(ctx, target, limitFor(config, target));
      let work: () => Promise<Result>;
      // As Hermes: a non-empty operations list wins over the single-change fields.
      const batched = Array.isArray(args.operations)
        ? args.operations.length > 0
        : args.operations !== undefined && args.operations !== null && args.operations !== '';
      if (batched) {
        if (!Array.isArray(args.operations)) return json({ success: false, error: 'operations must be a list of {action, content?, old_text?} objects.' });
        const ops: Op[] = [];
        for (const [i, raw] of args.operations.entries()) {
          const op = readOp(raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {}, `Operation ${i + 1}: `);
          if (typeof op === 'string')
            return json(counted(ctx.signal, file.refuse(await file.read(), `${op} Nothing was applied (the batch is all or nothing).`)));
          ops.push(op);
        }
        work = () => batch(file, ops);
      } else {
        const op = readOp(args, '');
        if (typeof op === 'string') {
          // A replace/remove without old_text gets the entries, so the model can name one.
          return json(str(args.action) === 'replace' || str(args.action) === 'remove' ? file.refuse(await file.read(), op) : { success: false, error: op });
        }
        work = () => single(file, op);
      }
      try {
        return json(counted(ctx.signal, await withMemoryFile(ctx.hermesHome, target, work)));
      } catch (err) {
        return json({ success: false, error: `Memory update failed: ${errorMessage(err)}` });
      } finally {
        // The incumbent's event, so an open Memory panel reloads the file.
        if (file.written) ctx.emit('state_saved', { session_id: ctx.sessionId, kind: 'memory', action: 'saved' });
      }
    },
  };
}

/** The tool with Hermes' default limits (2,200 and 1,375 characters). */
export const memoryTool: Tool = createMemoryTool();
