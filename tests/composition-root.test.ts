import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FsSessionStore } from '../src/adapters/storage/fs/fs-session-store.js';
import { SessionChangeFeed } from '../src/runs/session-change-feed.js';
import { FsSettingsStore } from '../src/adapters/storage/fs/fs-stores.js';
import { FsAuthStore } from '../src/adapters/storage/fs/fs-auth-store.js';
import { NodeHermesStateDb } from '../src/adapters/platform/node-hermes-state-db.js';
import { SwitchingRuntime } from '../src/agent/switching-runtime.js';
import { BuiltinAgentRuntime } from '../src/agent/builtin/runtime.js';
import { makeTestApp, type TestApp } from './helpers/app.js';

const root = join(import.meta.dirname, '..');
const rel = (f: string) => relative(root, f).split('\\').join('/');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Building any of these is wiring: it belongs in a composition root, not in a harness or main(). */
const WIRING = [
  'FsSessionStore',
  'MemorySessionStore',
  'FsSettingsStore',
  'MemorySettingsStore',
  'FsAuthStore',
  'MemoryAuthStore',
  'FsRunJournal',
  'MemoryRunJournal',
  'RunRegistry',
  'InteractionHub',
  'BuiltinAgentRuntime',
  'GatewayAgentRuntime',
  'SwitchingRuntime',
  'NodeAgentConfigSource',
  'NodeToolHost',
  'NodeWorkspaceFiles',
  'NodeHermesStateDb',
];
const builds = (text: string) => [
  ...WIRING.filter((name) => new RegExp(`new\\s+${name}\\s*\\(`).test(text)),
  // …or writes the deps object out by hand.
  ...(/:\s*AppDeps\s*=\s*\{/.test(text) ? ['an AppDeps literal'] : []),
];

/** Code without its comments (an @example may well say `new X(…)`). */
const code = (file: string) =>
  readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

/** What the app tests run on: tests/helpers, and every other helper that builds on makeTestApp (e.g. tests/gateway/harness.ts). */
const harnessFiles = tsFiles(join(root, 'tests')).filter(
  (f) =>
    !f.endsWith('.test.ts') &&
    !/[/\\]tests[/\\](components|fixtures)[/\\]/.test(f) &&
    (/[/\\]tests[/\\]helpers[/\\]/.test(f) || /makeTestApp/.test(readFileSync(f, 'utf8'))),
);

describe('one composition root for Node', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('the server and the test harness both call composeNodeDeps from src/entry/node-deps.ts', () => {
    const entry = readFileSync(join(root, 'src/entry/node.ts'), 'utf8');
    const harness = readFileSync(join(root, 'tests/helpers/app.ts'), 'utf8');
    expect(entry).toMatch(/import \{ composeNodeDeps \} from '\.\/node-deps\.js'/);
    expect(entry).toMatch(/await composeNodeDeps\(config, \{ logger: jsonLogger, env: process\.env, publicDir \}\)/);
    expect(harness).toMatch(/import \{ composeNodeDeps \} from '\.\.\/\.\.\/src\/entry\/node-deps\.js'/);
    expect(harness).toMatch(/await composeNodeDeps\(parseConfig\(env, /);
  });

  it('neither main() nor any test helper builds a store, a runtime or the run registry itself', () => {
    expect(harnessFiles.map(rel)).toContain('tests/helpers/app.ts');
    expect(harnessFiles.map(rel)).toContain('tests/gateway/harness.ts');
    const offences = [join(root, 'src/entry/node.ts'), ...harnessFiles].flatMap((f) => builds(code(f)).map((name) => `${rel(f)} builds ${name}`));
    expect(offences).toEqual([]);
  });

  it('in src, the agent and its backend are put together only by the two composition roots', () => {
    const where = (name: string) =>
      tsFiles(join(root, 'src'))
        .filter((f) => new RegExp(`new\\s+${name}\\s*\\(`).test(code(f)))
        .map(rel)
        .sort();
    expect(where('BuiltinAgentRuntime')).toEqual(['src/adapters/workers/worker-deps.ts', 'src/entry/node-deps.ts']);
    expect(where('FsSessionStore')).toEqual(['src/entry/node-storage.ts']);
    expect(where('SwitchingRuntime')).toEqual(['src/agent/backend-choice.ts']);
    const composers = tsFiles(join(root, 'src'))
      .filter((f) => /agentWithBackend\(/.test(code(f)) && !f.endsWith('backend-choice.ts'))
      .map(rel)
      .sort();
    expect(composers).toEqual(['src/adapters/workers/worker-deps.ts', 'src/entry/node-deps.ts']);
  });

  it('makeTestApp hands out the parts the server runs on', async () => {
    t = await makeTestApp({ storage: 'fs' });
    // The store behind the change feed that tells live sync about list changes.
    expect(t.deps.sessions).toBeInstanceOf(SessionChangeFeed);
    expect((t.deps.sessions as SessionChangeFeed).inner).toBeInstanceOf(FsSessionStore);
    expect(t.deps.settings).toBeInstanceOf(FsSettingsStore);
    expect(t.deps.auth).toBeInstanceOf(FsAuthStore);
    expect(t.deps.agentSessions).toBeInstanceOf(NodeHermesStateDb);
    expect(t.deps.agent.runtime).toBeInstanceOf(SwitchingRuntime);
    expect(t.deps.agent.backend.fixed).toBe(false);
    expect(t.deps.embed?.origins).toEqual([]);
  });

  it('the environment decides the backend: fixed builtin is the builtin agent itself, fixed gateway the gateway runtime', async () => {
    t = await makeTestApp({ env: { HERMES_WEBUI_CHAT_BACKEND: 'builtin' } });
    expect(t.deps.agent.backend.fixed).toBe(true);
    expect(t.deps.agent.runtime).toBeInstanceOf(BuiltinAgentRuntime);
    await t.close();
    t = await makeTestApp({ env: { HERMES_WEBUI_CHAT_BACKEND: 'gateway', HERMES_WEBUI_GATEWAY_BASE_URL: 'http://127.0.0.1:9/' } });
    expect(t.deps.agent.runtime.kind).toBe('gateway');
    expect(await t.deps.agent.backend.current()).toEqual({ backend: 'gateway', gatewayBaseUrl: 'http://127.0.0.1:9' });
  });
});
