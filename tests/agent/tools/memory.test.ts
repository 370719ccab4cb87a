import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryTool, memoryTool, memoryUsage, parseEntries, renderMemorySnapshot } from '../../../src/agent/tools/memory.js';
import { DEFAULT_MEMORY_CONFIG } from '../../../src/agent/tools/memory-store.js';
import { fakeContext, parse, sandbox, type Sandbox } from './helpers.js';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

const memFile = () => join(box.hermesHome, 'memories/MEMORY.md');
const userFile = () => join(box.hermesHome, 'memories/USER.md');
const run = async (args: Record<string, unknown>, tool = memoryTool) => parse(await tool.run(args, fakeContext(box).ctx));
const seed = (text: string, file = memFile()) => {
  mkdirSync(join(box.hermesHome, 'memories'), { recursive: true });
  writeFileSync(file, text);
};

describe('memory: single changes', () => {
  it('adds entries joined by § lines (no trailing newline, as Hermes writes) and reports usage', async () => {
    const r1 = await run({ action: 'add', target: 'memory', content: '  Project uses pnpm  ' });
    expect(r1).toMatchObject({ success: true, done: true, entry_count: 1, usage: '0% — 17/2,200 chars', message: 'Entry added.' });
    const r2 = await run({ action: 'add', target: 'memory', content: 'Tests run with vitest' });
    expect(r2.entry_count).toBe(2);
    expect(readFileSync(memFile(), 'utf8')).toBe('Project uses pnpm\n§\nTests run with vitest');
    expect(r2.usage).toBe('1% — 41/2,200 chars');
    // Success answers do not list the entries: Hermes keeps them terminal.
    expect(r2.current_entries).toBeUndefined();
  });

  it('formats usage as Hermes does (rounded down, at most 100%)', () => {
    expect(memoryUsage(['x'.repeat(1474)], 2200)).toBe('67% — 1,474/2,200 chars');
    expect(memoryUsage(['x'.repeat(3000)], 2200)).toBe('100% — 3,000/2,200 chars');
    expect(parseEntries('a\n§\n\n§\nb\nc\n  §  \na\n')).toEqual(['a', 'b\nc']);
  });

  it('an add over the limit is refused with the current entries; nothing is evicted', async () => {
    const a = 'A'.repeat(1000);
    const b = 'B'.repeat(1000);
    seed(`${a}\n§\n${b}`);
    const r = await run({ action: 'add', target: 'memory', content: 'C'.repeat(500) });
    expect(r).toMatchObject({ success: false, current_entries: [a, b], usage: '2,003/2,200' });
    expect(r.error).toMatch(/would go over the limit/);
    expect(r.error).toMatch(/operations/);
    expect(readFileSync(memFile(), 'utf8')).toBe(`${a}\n§\n${b}`);
  });

  it('after three refusals in one turn the answer stops asking for retries; another turn starts afresh', async () => {
    seed('A'.repeat(2190));
    const turn = fakeContext(box).ctx;
    const add = async (ctx = turn) => parse(await memoryTool.run({ action: 'add', target: 'memory', content: 'one more fact' }, ctx));
    for (let i = 0; i < 3; i++) expect((await add()).current_entries).toHaveLength(1);
    const fourth = await add();
    expect(fourth).toMatchObject({ success: false, done: true });
    expect(fourth.error).toMatch(/failed 4 times this turn/);
    expect((await add(fakeContext(box).ctx)).current_entries).toHaveLength(1);
  });

  it('honours configured limits per store', async () => {
    const tool = createMemoryTool({ ...DEFAULT_MEMORY_CONFIG, userCharLimit: 30 });
    expect(await run({ action: 'add', target: 'user', content: 'Prefers short answers' }, tool)).toMatchObject({ success: true, usage: '70% — 21/30 chars' });
    expect(readFileSync(userFile(), 'utf8')).toBe('Prefers short answers');
    const over = await run({ action: 'add', target: 'user', content: 'Lives in Lyon' }, tool);
    expect(over).toMatchObject({ success: false, current_entries: ['Prefers short answers'] });
    expect(tool.spec.description).toContain("'user' 30 chars");
  });

  it('an exact duplicate is a no-op success', async () => {
    await run({ action: 'add', target: 'memory', content: 'Uses Postgres 16' });
    const dup = await run({ action: 'add', target: 'memory', content: 'Uses Postgres 16' });
    expect(dup).toMatchObject({ success: true, entry_count: 1 });
    expect(dup.message).toMatch(/already exists/);
  });

  it('replaces and removes by a unique substring', async () => {
    for (const content of ['Deploys go through staging', 'Editor is Helix', 'Timezone is CET']) await run({ action: 'add', target: 'memory', content });
    expect(await run({ action: 'replace', target: 'memory', old_text: 'Helix', content: 'Editor is Neovim' })).toMatchObject({ success: true, entry_count: 3 });
    expect(await run({ action: 'remove', target: 'memory', old_text: 'staging' })).toMatchObject({ success: true, entry_count: 2 });
    expect(readFileSync(memFile(), 'utf8')).toBe('Editor is Neovim\n§\nTimezone is CET');
  });

  it('no match, several matches, a missing old_text or an oversize replacement change nothing', async () => {
    for (const content of ['Editor is Helix', 'Shell is fish']) await run({ action: 'add', target: 'memory', content });
    const before = readFileSync(memFile(), 'utf8');
    const none = await run({ action: 'remove', target: 'memory', old_text: 'vim' });
    expect(none).toMatchObject({ success: false, current_entries: ['Editor is Helix', 'Shell is fish'] });
    expect(none.error).toMatch(/No entry contains 'vim'/);
    const many = await run({ action: 'replace', target: 'memory', old_text: ' is ', content: 'x' });
    expect(many.matches).toEqual(['Editor is Helix', 'Shell is fish']);
    const noOld = await run({ action: 'remove', target: 'memory' });
    expect(noOld.error).toMatch(/old_text is required/);
    expect(noOld.current_entries).toHaveLength(2);
    const over = await run({ action: 'replace', target: 'memory', old_text: 'fish', content: 'f'.repeat(2200) });
    expect(over).toMatchObject({ success: false, usage: '31/2,200' });
    expect(over.error).toMatch(/2,218\/2,200/);
    expect(readFileSync(memFile(), 'utf8')).toBe(before);
  });

  it('validates target and content', async () => {
    expect((await run({ action: 'delete', target: 'memory' })).error).toMatch(/unknown action/);
    expect((await run({ action: 'add', target: 'soul', content: 'x' })).error).toMatch(/Invalid target 'soul'/);
    expect((await run({ action: 'add', target: 'memory', content: '   ' })).error).toMatch(/content is required/);
    expect((await run({ action: 'add', target: 'memory', content: 'a\n§\nb' })).error).toMatch(/separator/);
    expect((await run({ action: 'add', target: 'memory', content: 'hidden\u200Binstruction' })).error).toMatch(/invisible/);
    // target defaults to memory, as in Hermes
    expect(await run({ action: 'add', content: 'no target given' })).toMatchObject({ success: true, target: 'memory' });
  });

  it('serializes parallel adds so none is lost', async () => {
    const { ctx } = fakeContext(box);
    await Promise.all(['one', 'two', 'three', 'four'].map((content) => memoryTool.run({ action: 'add', target: 'memory', content }, ctx)));
    expect(parseEntries(readFileSync(memFile(), 'utf8')).sort()).toEqual(['four', 'one', 'three', 'two']);
  });
});

describe('memory: the operations[] batch', () => {
  it('frees room and adds in one call; only the final size counts', async () => {
    const a = 'A'.repeat(1000);
    const b = 'B'.repeat(1000);
    seed(`${a}\n§\n${b}`);
    const r = await run({
      target: 'memory',
      operations: [
        { action: 'add', content: 'C'.repeat(500) }, // over the limit on its own
        { action: 'remove', old_text: 'AAAA' },
        { action: 'replace', old_text: 'BBBB', content: 'B is now short' },
        { action: 'add', content: 'B is now short' }, // a duplicate in a batch is skipped
      ],
    });
    expect(r).toMatchObject({ success: true, entry_count: 2, message: 'Applied 4 operation(s).' });
    expect(readFileSync(memFile(), 'utf8')).toBe(`B is now short\n§\n${'C'.repeat(500)}`);
  });

  it('is all or nothing: one bad operation or a final overflow applies none', async () => {
    seed('Editor is Helix\n§\nShell is fish');
    const before = readFileSync(memFile(), 'utf8');
    const miss = await run({
      target: 'memory',
      operations: [
        { action: 'remove', old_text: 'Helix' },
        { action: 'remove', old_text: 'zsh' },
      ],
    });
    expect(miss).toMatchObject({ success: false, current_entries: ['Editor is Helix', 'Shell is fish'] });
    expect(miss.error).toMatch(/^Operation 2 \(remove\): no entry contains 'zsh'.*all or nothing/);
    const bad = await run({
      target: 'memory',
      operations: [
        { action: 'add', content: 'ok' },
        { action: 'replace', old_text: 'fish' },
      ],
    });
    expect(bad.error).toMatch(/^Operation 2: content is required for replace/);
    const vague = await run({ target: 'memory', operations: [{ action: 'remove', old_text: ' is ' }] });
    expect(vague.error).toMatch(/several different entries/);
    const big = await run({
      target: 'memory',
      operations: [
        { action: 'add', content: 'x'.repeat(2000) },
        { action: 'add', content: 'y'.repeat(300) },
      ],
    });
    expect(big.error).toMatch(/After all 2 operations memory would be at 2,337\/2,200 chars/);
    expect(readFileSync(memFile(), 'utf8')).toBe(before);
    expect((await run({ target: 'memory', operations: 'remove all' })).error).toMatch(/operations must be a list/);
  });
});

describe('renderMemorySnapshot', () => {
  it('renders both blocks as Hermes does', () => {
    const text = renderMemorySnapshot({ memory: 'Uses pnpm\n§\nCI is GitHub Actions', user: 'Name: Sam' }, DEFAULT_MEMORY_CONFIG);
    const rule = '═'.repeat(46);
    expect(text).toBe(
      `${rule}\nMEMORY (your personal notes) [1% — 32/2,200 chars]\n${rule}\nUses pnpm\n§\nCI is GitHub Actions\n\n` +
        `${rule}\nUSER PROFILE (who the user is) [0% — 9/1,375 chars]\n${rule}\nName: Sam`,
    );
  });

  it('leaves out disabled or empty stores and marks an over-budget file', () => {
    expect(renderMemorySnapshot({ memory: 'a', user: 'b' }, { ...DEFAULT_MEMORY_CONFIG, memoryEnabled: false })).toMatch(/^═+\nUSER PROFILE/);
    expect(renderMemorySnapshot({ memory: '\n§\n', user: null }, DEFAULT_MEMORY_CONFIG)).toBeNull();
    const over = renderMemorySnapshot({ memory: 'z'.repeat(2500), user: null }, DEFAULT_MEMORY_CONFIG)!;
    expect(over).toContain('[100% — 2,500/2,200 chars ⚠ OVER BUDGET]');
    const huge = renderMemorySnapshot({ memory: 'h'.repeat(10_000), user: null }, DEFAULT_MEMORY_CONFIG)!;
    expect(huge).toMatch(/chars cut: memory is over its budget \(10,000\/2,200\)/);
    expect(huge.length).toBeLessThan(5000);
    expect(renderMemorySnapshot({ memory: 'ok\n§\nsneaky\u200Btext', user: null }, DEFAULT_MEMORY_CONFIG)).toMatch(/ok\n§\n\[BLOCKED: MEMORY\.md entry/);
  });
});

describe('memory: state_saved', () => {
  it('tells the open UI after a write, and only then', async () => {
    const f = fakeContext(box);
    await memoryTool.run({ action: 'add', target: 'user', content: 'Likes tea' }, f.ctx);
    expect(f.emits).toEqual([{ event: 'state_saved', data: { session_id: f.ctx.sessionId, kind: 'memory', action: 'saved' } }]);
    // The same entry again changes nothing; a refusal neither.
    await memoryTool.run({ action: 'add', target: 'user', content: 'Likes tea' }, f.ctx);
    await memoryTool.run({ action: 'remove', target: 'user', old_text: 'coffee' }, f.ctx);
    expect(f.emits).toHaveLength(1);
    expect(readFileSync(userFile(), 'utf8')).toBe('Likes tea');
  });
});
