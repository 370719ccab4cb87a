import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeToolHost, type NodeToolHostOptions } from '../../../src/adapters/platform/node-tool-host.js';
import type { ProcessRegistry } from '../../../src/agent/tools/process-registry.js';
import type { TodoItem, ToolContext } from '../../../src/agent/tools/types.js';

export interface Sandbox {
  root: string;
  workspace: string;
  home: string;
  hermesHome: string;
  cleanup(): void;
}

/** A temp tree with a workspace, a fake home (for `~`) and a Hermes home under it. */
export function sandbox(): Sandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'hermes-tools-')));
  const workspace = join(root, 'ws');
  const home = join(root, 'home');
  const hermesHome = join(home, '.hermes');
  for (const d of [workspace, home, hermesHome]) mkdirSync(d, { recursive: true });
  return { root, workspace, home, hermesHome, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export interface FakeContext {
  ctx: ToolContext;
  emits: Array<{ event: string; data: Record<string, unknown> }>;
  checked: string[];
  asked: Array<{ question: string; choices: string[] }>;
  todos: TodoItem[];
}

export function fakeContext(
  box: Sandbox,
  opts: {
    host?: NodeToolHost;
    hostOptions?: NodeToolHostOptions;
    signal?: AbortSignal;
    checkCommand?: (command: string) => Promise<string | null>;
    clarify?: (question: string, choices: string[]) => Promise<string | null>;
    /** A shell state (cwd kept across calls, background processes in this registry), as the runtime gives one. */
    processes?: ProcessRegistry;
    sessionId?: string;
  } = {},
): FakeContext {
  const host = opts.host ?? new NodeToolHost({ homeDir: box.home, ...opts.hostOptions });
  const fake: FakeContext = { emits: [], checked: [], asked: [], todos: [], ctx: undefined as unknown as ToolContext };
  fake.ctx = {
    sessionId: opts.sessionId ?? 'sess-1',
    workspace: box.workspace,
    hermesHome: box.hermesHome,
    host,
    signal: opts.signal ?? new AbortController().signal,
    async checkCommand(command) {
      fake.checked.push(command);
      return opts.checkCommand ? opts.checkCommand(command) : null;
    },
    async clarify(question, choices) {
      fake.asked.push({ question, choices });
      return opts.clarify ? opts.clarify(question, choices) : null;
    },
    emit(event, data) {
      fake.emits.push({ event, data });
    },
    todos: {
      get: () => fake.todos,
      set: (items) => {
        fake.todos = items;
      },
    },
  };
  if (opts.processes) {
    let cwd = box.workspace;
    fake.ctx.terminalSession = {
      cwd: () => cwd,
      setCwd: (dir) => {
        cwd = dir;
      },
      processes: opts.processes.forSession(fake.ctx.sessionId),
    };
  }
  return fake;
}

export function parse(text: string): Record<string, any> {
  return JSON.parse(text) as Record<string, any>;
}
