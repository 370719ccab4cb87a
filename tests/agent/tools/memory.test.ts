import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryTool, memoryUsage, parseEntries } from '../../../src/agent/tools/memory.js';
import { fakeContext, parse, sandbox, type Sandbox } from './helpers.js';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

const memFile = () => join(box.hermesHome, 'memories/MEMORY.md');
const userFile = () => join(box.hermesHome, 'memories/USER.md');
const archiveFile = () => join(box.hermesHome, 'memories/ARCHIVE.jsonl');
const run = async (args: Record<string, unknown>) => parse(await memoryTool.run(args, fakeContext(box).ctx));

describe('memory', () => {
  it('adds entries separated by § lines and reports usage', async () => {
    const r1 = await run({ action: 'add', target: 'memory', content: '  Project uses pnpm  ' });
    expect(r1).toMatchObject({ success: true, entries: 1, usage: '1% — 17/2,200 chars' });
    const r2 = await run({ action: 'add', target: 'memory', content: 'Tests run with vitest' });
    expect(r2.entries).toBe(2);
    expect(readFileSync(memFile(), 'utf8')).toBe('Project uses pnpm\n§\nTests run with vitest\n');
    // 17 + 3 (separator) + 21 = 41 chars
    expect(r2.usage).toBe('2% — 41/2,200 chars');
  });

  it('formats usage as Hermes does', () => {
    const entries = ['x'.repeat(1474)];
    expect(memoryUsage(entries, 2200)).toBe('67% — 1,474/2,200 chars');
    expect(parseEntries('a\n§\n\n§\nb\nc\n  §  \n')).toEqual(['a', 'b\nc']);
  });

  it('keeps user entries in USER.md with its own 1,375-char limit', async () => {
    const r = await run({ action: 'add', target: 'user', content: 'Prefers short answers' });
    expect(r.usage).toBe('2% — 21/1,375 chars');
    expect(readFileSync(userFile(), 'utf8')).toBe('Prefers short answers\n');
    const tooLong = await run({ action: 'add', target: 'user', content: 'u'.repeat(1376) });
    expect(tooLong.success).toBe(false);
    expect(tooLong.error).toMatch(/1376 chars, over the 1375-char limit/);
    // The same entry fits the larger memory target.
    expect((await run({ action: 'add', target: 'memory', content: 'u'.repeat(1376) })).success).toBe(true);
  });

  it('rejects an exact duplicate', async () => {
    await run({ action: 'add', target: 'memory', content: 'Uses Postgres 16' });
    const dup = await run({ action: 'add', target: 'memory', content: 'Uses Postgres 16' });
    expect(dup).toMatchObject({ success: false, entries: 1 });
    expect(dup.error).toMatch(/already exists/);
  });

  it('evicts the oldest entries to ARCHIVE.jsonl when an add goes over the limit', async () => {
    mkdirSync(join(box.hermesHome, 'memories'), { recursive: true });
    const a = 'A'.repeat(1000);
    const b = 'B'.repeat(1000);
    writeFileSync(memFile(), `${a}\n§\n${b}\n`);
    const c = 'C'.repeat(500);
    const r = await run({ action: 'add', target: 'memory', content: c });
    expect(r).toMatchObject({ success: true, entries: 2, evicted: 1, usage: '68% — 1,503/2,200 chars' });
    expect(readFileSync(memFile(), 'utf8')).toBe(`${b}\n§\n${c}\n`);
    const archived = readFileSync(archiveFile(), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(archived).toHaveLength(1);
    expect(archived[0]).toMatchObject({ target: 'memory', content: a, reason: 'evicted' });
    expect(Number.isNaN(Date.parse(archived[0].archived_at))).toBe(false);

    // A second eviction appends to the archive.
    await run({ action: 'add', target: 'memory', content: 'D'.repeat(1500) });
    const lines = readFileSync(archiveFile(), 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).content[0])).toEqual(['A', 'B']);
  });

  it('replaces and removes by a unique substring', async () => {
    for (const content of ['Deploys go through staging', 'Editor is Helix', 'Timezone is CET']) await run({ action: 'add', target: 'memory', content });
    const rep = await run({ action: 'replace', target: 'memory', old_text: 'Helix', content: 'Editor is Neovim' });
    expect(rep).toMatchObject({ success: true, entries: 3 });
    const rem = await run({ action: 'remove', target: 'memory', old_text: 'staging' });
    expect(rem).toMatchObject({ success: true, entries: 2 });
    expect(readFileSync(memFile(), 'utf8')).toBe('Editor is Neovim\n§\nTimezone is CET\n');
  });

  it('fails replace/remove on no match or several matches, changing nothing', async () => {
    for (const content of ['Editor is Helix', 'Shell is fish']) await run({ action: 'add', target: 'memory', content });
    const before = readFileSync(memFile(), 'utf8');
    const none = await run({ action: 'remove', target: 'memory', old_text: 'vim' });
    expect(none.error).toMatch(/No entry contains old_text 'vim'/);
    const many = await run({ action: 'replace', target: 'memory', old_text: ' is ', content: 'x' });
    expect(many.error).toMatch(/matches 2 entries/);
    const noOld = await run({ action: 'remove', target: 'memory' });
    expect(noOld.error).toMatch(/old_text is required/);
    const over = await run({ action: 'replace', target: 'memory', old_text: 'fish', content: 'f'.repeat(2200) });
    expect(over.error).toMatch(/over its 2200-char limit/);
    expect(readFileSync(memFile(), 'utf8')).toBe(before);
  });

  it('validates action, target and content', async () => {
    expect((await run({ action: 'delete', target: 'memory' })).error).toMatch(/action must be/);
    expect((await run({ action: 'add', target: 'soul', content: 'x' })).error).toMatch(/target must be/);
    expect((await run({ action: 'add', target: 'memory', content: '   ' })).error).toMatch(/content is required/);
    expect((await run({ action: 'add', target: 'memory', content: 'a\n§\nb' })).error).toMatch(/separator/);
    expect((await run({ action: 'add', target: 'memory', content: 'hidden\u200Binstruction' })).error).toMatch(/invisible/);
  });

  it('serializes parallel adds so none is lost', async () => {
    const { ctx } = fakeContext(box);
    await Promise.all(['one', 'two', 'three', 'four'].map((content) => memoryTool.run({ action: 'add', target: 'memory', content }, ctx)));
    expect(parseEntries(readFileSync(memFile(), 'utf8')).sort()).toEqual(['four', 'one', 'three', 'two']);
  });
});
