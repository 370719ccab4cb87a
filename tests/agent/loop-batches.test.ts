import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeToolHost } from '../../src/adapters/platform/node-tool-host.js';
import { parseAgentConfig } from '../../src/agent/config.js';
import { runLoop } from '../../src/agent/builtin/loop.js';
import { planToolBatches } from '../../src/agent/builtin/tool-batches.js';
import type { ToolCall } from '../../src/agent/messages.js';
import { createOpenAIProvider } from '../../src/agent/providers/openai.js';
import type { TurnOutput } from '../../src/agent/runtime.js';
import { builtinTools } from '../../src/agent/tools/index.js';
import type { ToolHost } from '../../src/agent/tools/types.js';
import type { Message } from '../../src/shared/session.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { fakeContext, sandbox, type Sandbox } from './tools/helpers.js';

const call = (name: string, args: Record<string, unknown> | string, id = `c_${name}`): ToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
});

const plan = (calls: ToolCall[]) => planToolBatches(calls, { cwd: '/ws', homeDir: '/home/u' }).map((s) => `${s.mode}:${s.calls.join(',')}`);

describe('planToolBatches: Hermes rules', () => {
  const cases: Array<[string, ToolCall[], string[]]> = [
    ['two reads of different files run together', [call('read_file', { path: 'a' }), call('read_file', { path: 'b' })], ['parallel:0,1']],
    ['two reads of one file still run together (readers share)', [call('read_file', { path: 'a' }), call('read_file', { path: './a' })], ['parallel:0,1']],
    ['two terminal calls run in order', [call('terminal', { command: 'ls' }), call('terminal', { command: 'pwd' })], ['sequential:0,1']],
    ['write then read of one file: in order', [call('write_file', { path: 'x', content: '1' }), call('read_file', { path: 'x' })], ['sequential:0,1']],
    [
      'write under a directory that a search covers: in order',
      [call('search_files', { pattern: 'p', path: 'src' }), call('write_file', { path: 'src/a.ts', content: '' })],
      ['sequential:0,1'],
    ],
    [
      'a bare search covers the cwd',
      [call('search_files', { pattern: 'p' }), call('patch', { path: 'z', old_string: 'a', new_string: 'b' })],
      ['sequential:0,1'],
    ],
    [
      'disjoint writes run together',
      [call('write_file', { path: 'a', content: '' }), call('patch', { path: 'b', old_string: 'x', new_string: 'y' })],
      ['parallel:0,1'],
    ],
    [
      'V4A patch scope comes from its headers, not a decoy path',
      [call('read_file', { path: 'real.txt' }), call('patch', { mode: 'patch', path: 'decoy', patch: '*** Begin Patch\n*** Update File: real.txt\n' })],
      ['sequential:0,1'],
    ],
    [
      '~ and absolute spellings of one file conflict',
      [call('write_file', { path: '~/n', content: '' }), call('read_file', { path: '/home/u/n' })],
      ['sequential:0,1'],
    ],
    ['memory and todo run in order', [call('memory', { action: 'add' }), call('todo', {}), call('read_file', { path: 'a' })], ['sequential:0,1,2']],
    [
      'clarify is a barrier between parallel runs',
      [call('web_search', { query: 'a' }), call('skills_list', {}), call('clarify', { question: '?' }), call('session_search', {}), call('vision_analyze', {})],
      ['parallel:0,1', 'sequential:2', 'parallel:3,4'],
    ],
    [
      'a conflict closes the run; the call opens the next one',
      [call('read_file', { path: 'a' }), call('read_file', { path: 'b' }), call('write_file', { path: 'a', content: '' }), call('read_file', { path: 'c' })],
      ['parallel:0,1', 'parallel:2,3'],
    ],
    [
      'unknown tools (MCP, delegate, process) run in order',
      [call('mcp_fs_read', {}), call('delegate_task', {}), call('process', { action: 'list' })],
      ['sequential:0,1,2'],
    ],
    ['unreadable arguments are a barrier', [call('read_file', '{"path":'), call('read_file', { path: 'b' })], ['sequential:0,1']],
    ['a file tool without a path is a barrier', [call('read_file', {}), call('read_file', { path: 'b' })], ['sequential:0,1']],
    ['one call alone is sequential', [call('read_file', { path: 'a' })], ['sequential:0']],
  ];
  it.each(cases)('%s', (_name, calls, expected) => {
    expect(plan(calls)).toEqual(expected);
  });

  it('an MCP tool whose server opted in to parallel calls (Tool.mcp.parallelSafe) joins a parallel run', () => {
    const segments = planToolBatches([call('mcp__x__get', {}), call('read_file', { path: 'a' })], {
      cwd: '/ws',
      homeDir: '/h',
      isParallelSafe: (n) => n === 'mcp__x__get',
    });
    expect(segments).toEqual([{ mode: 'parallel', calls: [0, 1] }]);
  });
});

/** Wraps the real host: records side effects, and makes named reads wait until all have begun. */
class RecordingHost implements ToolHost {
  readonly log: string[] = [];
  #waiting = new Map<string, () => void>();
  constructor(
    private readonly inner: NodeToolHost,
    private readonly rendezvous: string[] = [],
  ) {}
  get homeDir() {
    return this.inner.homeDir;
  }
  exec: ToolHost['exec'] = async (r) => {
    this.log.push(`exec:start:${r.command}`);
    const out = await this.inner.exec(r);
    this.log.push(`exec:end:${r.command}`);
    return out;
  };
  readText = async (path: string) => {
    const name = path.slice(path.lastIndexOf('/') + 1);
    this.log.push(`read:${name}`);
    if (this.rendezvous.includes(name)) {
      // Each of these reads finishes only once every one of them has started: run one after
      // another they never would, and the timeout turns that into a tool error.
      await new Promise<void>((resolve, reject) => {
        this.#waiting.set(name, resolve);
        if (this.rendezvous.every((n) => this.#waiting.has(n))) for (const go of this.#waiting.values()) go();
        setTimeout(() => reject(new Error(`read of ${name} waited alone: the reads did not overlap`)), 3000).unref();
      });
    }
    return this.inner.readText(path);
  };
  writeText = async (path: string, content: string) => {
    const name = path.slice(path.lastIndexOf('/') + 1);
    this.log.push(`write:start:${name}`);
    // A write that takes a while: a read running beside it would see the old text.
    await new Promise((r) => setTimeout(r, 50));
    await this.inner.writeText(path, content);
    this.log.push(`write:end:${name}`);
  };
  stat: ToolHost['stat'] = (p) => this.inner.stat(p);
  search: ToolHost['search'] = (r) => this.inner.search(r);
}

describe('runLoop: tool calls of one step', () => {
  let box: Sandbox;
  let model: ScriptedServer;
  beforeEach(async () => {
    box = sandbox();
    model = await startScriptedOpenAI();
  });
  afterEach(async () => {
    await model.close();
    box.cleanup();
  });

  async function step(host: RecordingHost, steps: Parameters<ScriptedServer['enqueue']>[0]) {
    model.enqueue(steps, [{ text: 'done' }]);
    const fake = fakeContext(box, { host: host as unknown as NodeToolHost });
    const outputs: TurnOutput[] = [];
    await runLoop({
      sessionId: 's1',
      provider: createOpenAIProvider({ id: 'custom', baseUrl: model.url }),
      model: 'm',
      contextLength: 128_000,
      config: parseAgentConfig({ configYaml: null, dotenv: null, env: {} }),
      systemPrompt: 'sys',
      transcript: [{ role: 'user', content: 'go' }],
      compression: null,
      lastPromptTokens: 0,
      tools: builtinTools({ terminalTimeoutSeconds: 30 }),
      toolContext: fake.ctx,
      signal: new AbortController().signal,
      now: () => Date.now() / 1000,
      emit: (o) => outputs.push(o),
    });
    const stored = outputs.flatMap((o) => (o.type === 'messages' ? o.messages : []));
    return stored.filter((m: Message) => m.role === 'tool');
  }

  it('two terminal calls and a write+read of one file run one after another, in call order', async () => {
    writeFileSync(join(box.workspace, 'notes.txt'), 'old text\n');
    const host = new RecordingHost(new NodeToolHost({ homeDir: box.home }));
    const results = await step(host, [
      // The first command is the slow one: run side by side, the second would land first.
      { toolCall: { id: 't1', name: 'terminal', args: { command: 'sleep 0.3; echo one >> order.log' } } },
      { toolCall: { id: 't2', name: 'terminal', args: { command: 'echo two >> order.log' } } },
      { toolCall: { id: 'w1', name: 'write_file', args: { path: 'notes.txt', content: 'new text\n' } } },
      { toolCall: { id: 'r1', name: 'read_file', args: { path: 'notes.txt' } } },
    ]);
    expect(readFileSync(join(box.workspace, 'order.log'), 'utf8')).toBe('one\ntwo\n');
    expect(host.log.filter((l) => !l.startsWith('read:') || l === 'read:notes.txt')).toEqual([
      'exec:start:sleep 0.3; echo one >> order.log',
      'exec:end:sleep 0.3; echo one >> order.log',
      'exec:start:echo two >> order.log',
      'exec:end:echo two >> order.log',
      'write:start:notes.txt',
      'write:end:notes.txt',
      'read:notes.txt',
    ]);
    expect(results.map((m) => m.tool_call_id)).toEqual(['t1', 't2', 'w1', 'r1']);
    expect(String(results[3]!.content)).toContain('new text');
  });

  it('two reads run together: each waits for the other to begin', async () => {
    writeFileSync(join(box.workspace, 'a.txt'), 'alpha\n');
    writeFileSync(join(box.workspace, 'b.txt'), 'beta\n');
    const host = new RecordingHost(new NodeToolHost({ homeDir: box.home }), ['a.txt', 'b.txt']);
    const results = await step(host, [
      { toolCall: { id: 'ra', name: 'read_file', args: { path: 'a.txt' } } },
      { toolCall: { id: 'rb', name: 'read_file', args: { path: 'b.txt' } } },
    ]);
    expect(results.map((m) => m.tool_call_id)).toEqual(['ra', 'rb']);
    expect(String(results[0]!.content)).toContain('alpha');
    expect(String(results[1]!.content)).toContain('beta');
  });
});
