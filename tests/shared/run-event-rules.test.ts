import { describe, expect, it } from 'vitest';
import {
  isToolErrorResult,
  toolArgsPreview,
  toolFailed,
  toolPreview,
  toolPreviewTarget,
  toolResultPreview,
  toolRowTarget,
  toolTarget,
  toolTargetKey,
  TOOL_PREVIEW_CHARS,
  TOOL_RESULT_PREVIEW_CHARS,
} from '../../src/shared/run-events.js';

describe('tool rows: one rule for the runtimes, the stream and the stored transcript', () => {
  it('names the target argument, else the first one', () => {
    expect(toolTarget({ content: 'x', path: 'a.txt' })).toBe('a.txt');
    expect(toolTarget({ command: 'ls', path: 'p' })).toBe('ls');
    expect(toolTarget({ todos: [{ id: '1' }] })).toBe('[{"id":"1"}]');
    expect(toolTarget({})).toBe('');
    expect(toolPreview('terminal', 'ls -la')).toBe('terminal ls -la');
    expect(toolPreview('todo', '')).toBe('todo');
  });

  it('cuts a long target once, before a word, with one ellipsis', () => {
    const command = `echo ${'word '.repeat(60)}`;
    const preview = toolPreview('terminal', toolTarget({ command }));
    const target = toolPreviewTarget('terminal', preview);
    expect(target.endsWith('…')).toBe(true);
    expect(target.indexOf('…')).toBe(target.length - 1);
    expect(target.length).toBeLessThanOrEqual(TOOL_PREVIEW_CHARS + 1);
    expect(command.startsWith(target.slice(0, -1))).toBe(true);
  });

  it('a stored call shows what its live preview showed', () => {
    for (const [name, args] of [
      ['terminal', { command: `find . -name ${'x'.repeat(300)}` }],
      ['read_file', { path: 'src/app.ts' }],
      ['todo', { todos: [{ id: '1', content: 'Plan', status: 'pending' }] }],
      ['clarify', { question: 'Which one?', choices: ['a', 'b'] }],
    ] as const) {
      const live = toolPreviewTarget(name, toolPreview(name, toolTarget(args)));
      expect(toolRowTarget(name, args)).toBe(live);
    }
  });

  it('a gateway preview stands for the argument a stored call gives back', () => {
    for (const [name, text] of [
      ['terminal', 'pwd'],
      ['search_files', 'TODO'],
      ['write_file', 'a.txt'],
      ['clarify', 'Sure?'],
      ['browser_navigate', 'https://x'],
    ] as const) {
      expect(toolTarget({ [toolTargetKey(name)]: text })).toBe(text);
    }
  });

  it('args carry the first four, long values cut; results are cut at their own cap', () => {
    const args = toolArgsPreview({ a: 'x'.repeat(500), b: 2, c: { d: 1 }, e: null, f: 'dropped' });
    expect(Object.keys(args)).toEqual(['a', 'b', 'c', 'e']);
    expect(String(args.a).length).toBeLessThanOrEqual(TOOL_PREVIEW_CHARS + 1);
    expect(args.b).toBe(2);
    expect(args.c).toEqual({ d: 1 });
    expect(toolResultPreview('r'.repeat(5000)).length).toBeLessThanOrEqual(TOOL_RESULT_PREVIEW_CHARS + 1);
    expect(toolResultPreview('short')).toBe('short');
  });

  it('a call failed when its runtime says so or its result reports an error', () => {
    expect(isToolErrorResult('{"error": "no such file"}')).toBe(true);
    expect(isToolErrorResult('  { "error" : 1 }')).toBe(true);
    expect(isToolErrorResult('BLOCKED: the user denied this command')).toBe(true);
    expect(isToolErrorResult('{"content": "error: none"}')).toBe(false);
    // Hermes' memory, skills, web, vision and session_search failures.
    expect(isToolErrorResult('{"success":false,"error":"Memory is full"}')).toBe(true);
    expect(isToolErrorResult('{"success": true, "results": [{"success": false}]}')).toBe(false);
    expect(isToolErrorResult('{"success":falsey}')).toBe(false);
    expect(toolFailed({ is_error: true, result: 'fine' })).toBe(true);
    expect(toolFailed({ is_error: false, result: '{"error":"x"}' })).toBe(true);
    expect(toolFailed({ is_error: false, result: 'ok' })).toBe(false);
  });
});
