import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clarifyTool } from '../../../src/agent/tools/clarify.js';
import { builtinTools, toolSpecs } from '../../../src/agent/tools/index.js';
import { fakeContext, parse, sandbox, type Sandbox } from './helpers.js';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

describe('clarify', () => {
  it('asks the user and returns their answer', async () => {
    const f = fakeContext(box, { clarify: async () => 'Postgres' });
    const r = parse(await clarifyTool.run({ question: 'Which database?', choices: ['Postgres', 'SQLite'] }, f.ctx));
    expect(r).toEqual({ answer: 'Postgres' });
    expect(f.asked).toEqual([{ question: 'Which database?', choices: ['Postgres', 'SQLite'] }]);
    expect(clarifyTool.interactive).toBe(true);
  });

  it('tells the model to proceed when the user does not answer in time', async () => {
    const f = fakeContext(box, { clarify: async () => null });
    const r = parse(await clarifyTool.run({ question: 'Ship it?' }, f.ctx));
    expect(r).toEqual({ answer: null, note: 'The user did not answer in time; proceed with your best judgement.' });
    expect(f.asked).toEqual([{ question: 'Ship it?', choices: [] }]);
  });

  it('rejects a missing question and more than 4 choices without asking', async () => {
    const f = fakeContext(box, { clarify: async () => 'x' });
    expect(parse(await clarifyTool.run({}, f.ctx)).error).toBe('question is required');
    expect(parse(await clarifyTool.run({ question: 'Pick', choices: ['a', 'b', 'c', 'd', 'e'] }, f.ctx)).error).toMatch(/At most 4 choices/);
    expect(f.asked).toEqual([]);
  });
});

describe('builtinTools', () => {
  it('offers the Hermes core tools with their schemas', () => {
    const tools = builtinTools({ terminalTimeoutSeconds: 90 });
    const specs = toolSpecs(tools);
    expect(specs.map((s) => s.name)).toEqual([
      'terminal',
      'process',
      'read_file',
      'write_file',
      'patch',
      'search_files',
      'todo',
      'memory',
      'clarify',
      'session_search',
      'skills_list',
      'skill_view',
      'skill_manage',
      'vision_analyze',
      'delegate_task',
    ]);
    const byName = Object.fromEntries(specs.map((s) => [s.name, s.parameters as { properties: Record<string, any>; required: string[] }]));
    expect(byName.terminal?.properties.timeout.default).toBe(90);
    expect(byName.terminal?.required).toEqual(['command']);
    expect(Object.keys(byName.read_file?.properties ?? {})).toEqual(['path', 'offset', 'limit']);
    expect(byName.write_file?.required).toEqual(['path', 'content']);
    expect(Object.keys(byName.patch?.properties ?? {})).toEqual(['mode', 'path', 'old_string', 'new_string', 'replace_all', 'patch']);
    expect(Object.keys(byName.search_files?.properties ?? {})).toEqual(['pattern', 'target', 'path', 'file_glob', 'limit', 'offset', 'output_mode', 'context']);
    expect(byName.todo?.properties.todos.items.properties.status.enum).toEqual(['pending', 'in_progress', 'completed', 'cancelled']);
    expect(byName.memory?.required).toEqual(['target']);
    expect(Object.keys(byName.memory?.properties ?? {})).toEqual(['action', 'target', 'content', 'old_text', 'operations']);
    expect(byName.clarify?.properties.choices.maxItems).toBe(4);
    expect(Object.keys(byName.session_search?.properties ?? {})).toEqual([
      'query',
      'limit',
      'sort',
      'detail',
      'session_id',
      'around_message_id',
      'window',
      'role_filter',
    ]);
    expect(byName.skills_list?.required).toEqual([]);
    expect(byName.skill_view?.required).toEqual(['name']);
    expect(Object.keys(byName.skill_view?.properties ?? {})).toEqual(['name', 'file_path']);
    expect(byName.vision_analyze?.required).toEqual(['image_url', 'question']);
    expect(tools.filter((t) => t.interactive).map((t) => t.spec.name)).toEqual(['clarify']);
  });
});
