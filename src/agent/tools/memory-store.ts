import type { MemoryConfig } from '../config.js';
import { charLength } from './args.js';

/**
 * Hermes' curated memory files (`memories/MEMORY.md`, `memories/USER.md`): entries joined by a
 * line holding only `§`, budgeted in characters. Pure functions shared by the `memory` tool and
 * the system prompt's snapshot.
 */
export type MemoryTarget = 'memory' | 'user';
export const MEMORY_FILES: Record<MemoryTarget, string> = { memory: 'MEMORY.md', user: 'USER.md' };
export const ENTRY_SEPARATOR = '\n§\n';
export const DEFAULT_MEMORY_CONFIG: MemoryConfig = { memoryEnabled: true, userProfileEnabled: true, memoryCharLimit: 2200, userCharLimit: 1375 };

/** Invisible characters can smuggle instructions into every future prompt. */
export const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/;

export const limitFor = (config: MemoryConfig, target: MemoryTarget) => (target === 'user' ? config.userCharLimit : config.memoryCharLimit);

/** Entries of a memory file: blocks between lines that hold only `§`, trimmed, empty ones and repeats dropped. */
export function parseEntries(text: string): string[] {
  const entries: string[] = [];
  let block: string[] = [];
  const flush = () => {
    const entry = block.join('\n').trim();
    if (entry && !entries.includes(entry)) entries.push(entry);
    block = [];
  };
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '§') flush();
    else block.push(line);
  }
  flush();
  return entries;
}

/** The file text Hermes writes: entries joined by the separator, no trailing newline. */
export const serializeEntries = (entries: readonly string[]) => entries.join(ENTRY_SEPARATOR);

export const usedChars = (entries: readonly string[]) => (entries.length ? charLength(serializeEntries(entries)) : 0);

const fmt = (n: number) => n.toLocaleString('en-US');
const percent = (used: number, limit: number) => (limit > 0 ? Math.min(100, Math.floor((used / limit) * 100)) : 0);

/** `67% — 1,474/2,200 chars`, as Hermes reports usage (percent rounded down, at most 100). */
export function memoryUsage(entries: readonly string[], limit: number): string {
  const used = usedChars(entries);
  return `${percent(used, limit)}% — ${fmt(used)}/${fmt(limit)} chars`;
}

/** `1,474/2,200`: the short form on refusals. */
export const usageShort = (entries: readonly string[], limit: number) => `${fmt(usedChars(entries))}/${fmt(limit)}`;

const HEADERS: Record<MemoryTarget, string> = { memory: 'MEMORY (your personal notes)', user: 'USER PROFILE (who the user is)' };
const RULE = '═'.repeat(46);

/** An entry that must not reach the system prompt is shown as a placeholder; the file keeps it. */
function promptSafe(entry: string, file: string): string {
  if (!INVISIBLE.test(entry)) return entry;
  return `[BLOCKED: ${file} entry contains invisible Unicode characters. Left out of the system prompt; remove it with memory(action=remove).]`;
}

/** One store's block, Hermes' layout: a rule, the header with usage, a rule, the entries. */
function renderBlock(target: MemoryTarget, entries: string[], limit: number): string | null {
  if (!entries.length) return null;
  let content = serializeEntries(entries.map((e) => promptSafe(e, MEMORY_FILES[target])));
  const used = charLength(content);
  // A file grown past its budget by another writer still cannot flood the prompt: head and tail are kept.
  const cap = Math.max(limit * 2, 4000);
  if (used > cap) {
    const chars = [...content];
    const head = Math.floor(cap * 0.7);
    const tail = Math.floor(cap * 0.2);
    content =
      chars.slice(0, head).join('') +
      `\n\n[... ${fmt(used - head - tail)} chars cut: memory is over its budget (${fmt(used)}/${fmt(limit)}); consolidate with memory(action=remove/replace) ...]\n\n` +
      chars.slice(chars.length - tail).join('');
  }
  const over = used > limit ? ' ⚠ OVER BUDGET' : '';
  return `${RULE}\n${HEADERS[target]} [${percent(used, limit)}% — ${fmt(used)}/${fmt(limit)} chars${over}]\n${RULE}\n${content}`;
}

/**
 * The memory part of the system prompt, rendered as Hermes renders its frozen snapshot: the
 * MEMORY block, then the USER PROFILE block, each only when enabled and non-empty. Built from
 * the files as they were when the prompt was made; writes later in the session change the
 * files, not this text.
 *
 * @example
 * renderMemorySnapshot({ memory: 'Uses pnpm', user: null }, DEFAULT_MEMORY_CONFIG)
 */
export function renderMemorySnapshot(files: { memory: string | null; user: string | null }, config: MemoryConfig): string | null {
  const blocks = [
    config.memoryEnabled ? renderBlock('memory', parseEntries(files.memory ?? ''), config.memoryCharLimit) : null,
    config.userProfileEnabled ? renderBlock('user', parseEntries(files.user ?? ''), config.userCharLimit) : null,
  ].filter((b): b is string => b !== null);
  return blocks.length ? blocks.join('\n\n') : null;
}
