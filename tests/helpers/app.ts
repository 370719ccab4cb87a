import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type AppDeps } from '../../src/app.js';
import type { Logger } from '../../src/ports/platform.js';
import { MemorySessionStore } from '../../src/adapters/storage/memory/memory-session-store.js';
import { MemoryProjectStore, MemorySettingsStore, MemoryWorkspaceStore } from '../../src/adapters/storage/memory/memory-stores.js';
import { FsSessionStore } from '../../src/adapters/storage/fs/fs-session-store.js';
import { FsProjectStore, FsSettingsStore, FsWorkspaceStore } from '../../src/adapters/storage/fs/fs-stores.js';
import { NodeWorkspaceFiles } from '../../src/adapters/platform/node-workspace-files.js';
import { NodeAttachmentStore } from '../../src/adapters/platform/node-attachments.js';
import { NodeAssetSource } from '../../src/adapters/platform/node-assets.js';

export interface TestLogger extends Logger {
  lines: Record<string, unknown>[];
  errors: Record<string, unknown>[];
}

export function memoryLogger(): TestLogger {
  const lines: Record<string, unknown>[] = [];
  const errors: Record<string, unknown>[] = [];
  return { lines, errors, info: (r) => lines.push(r), error: (r) => errors.push(r) };
}

export interface TestApp {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  logger: TestLogger;
  /** A temp directory holding the state dir, the default workspace and public/. */
  dir: string;
  stateDir: string;
  workspace: string;
  /** JSON request helper: returns status and parsed body. */
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; res: Response }>;
  /** Creates a session and returns its id. */
  newSession(body?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/**
 * A real app over temp directories: memory stores by default, or the fs adapter with
 * `{ storage: 'fs' }`; files and uploads always use the real Node adapters.
 */
export async function makeTestApp(options: { storage?: 'memory' | 'fs'; maxUploadBytes?: number; maxJsonBytes?: number } = {}): Promise<TestApp> {
  const dir = await mkdtemp(join(tmpdir(), 'hermes-test-'));
  const stateDir = join(dir, 'state');
  const workspace = join(dir, 'workspace');
  const publicDir = join(dir, 'public');
  await mkdir(stateDir, { recursive: true });
  await mkdir(workspace, { recursive: true });
  await mkdir(publicDir, { recursive: true });
  const clock = { now: () => Date.now() / 1000 };
  const logger = memoryLogger();
  const fs = options.storage === 'fs';
  const sessions = fs ? new FsSessionStore({ stateDir, clock, logger }) : new MemorySessionStore(clock);
  await sessions.init();
  const deps: AppDeps = {
    sessions,
    settings: fs ? new FsSettingsStore(stateDir, logger) : new MemorySettingsStore(),
    projects: fs ? new FsProjectStore(stateDir, logger) : new MemoryProjectStore(),
    workspaces: fs ? new FsWorkspaceStore(stateDir, logger) : new MemoryWorkspaceStore(),
    files: new NodeWorkspaceFiles(),
    attachments: new NodeAttachmentStore(stateDir),
    assets: new NodeAssetSource(publicDir),
    clock,
    logger,
    options: {
      defaultWorkspace: workspace,
      maxUploadBytes: options.maxUploadBytes ?? 20 * 1024 * 1024,
      ...(options.maxJsonBytes ? { maxJsonBytes: options.maxJsonBytes } : {}),
      version: 'test',
    },
  };
  const app = createApp(deps);
  const call: TestApp['call'] = async (method, path, body) => {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers = { 'Content-Type': 'application/json' };
    }
    const res = await result.app.request(path, init);
    const text = await res.clone().text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed, res };
  };
  const result: TestApp = {
    app,
    deps,
    logger,
    dir,
    stateDir,
    workspace,
    call,
    async newSession(body = {}) {
      const r = await call('POST', '/api/session/new', body);
      if (r.status !== 200) throw new Error(`session/new failed: ${JSON.stringify(r.body)}`);
      return r.body.session.session_id as string;
    },
    async close() {
      await sessions.dispose();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return result;
}
