import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeToolHost } from '../../../src/adapters/platform/node-tool-host.js';
import { ProcessRegistry } from '../../../src/agent/tools/process-registry.js';
import { processTool } from '../../../src/agent/tools/process.js';
import { readFileTool } from '../../../src/agent/tools/read-file.js';
import { searchFilesTool } from '../../../src/agent/tools/search-files.js';
import { terminalTool } from '../../../src/agent/tools/terminal.js';
import { writeFileTool } from '../../../src/agent/tools/write-file.js';
import { fakeContext, parse, sandbox, type Sandbox } from './helpers.js';

const terminal = terminalTool({ defaultTimeoutSeconds: 180 });
const proc = processTool({ maxWaitSeconds: 180 });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

describe('the session working directory', () => {
  let box: Sandbox;
  let registry: ProcessRegistry;
  beforeEach(() => {
    box = sandbox();
    registry = new ProcessRegistry(new NodeToolHost({ homeDir: box.home }));
  });
  afterEach(async () => {
    await registry.stopAll();
    box.cleanup();
  });

  it('persists across terminal calls: `cd sub` then `pwd`', async () => {
    const { ctx } = fakeContext(box, { processes: registry });
    expect(parse(await terminal.run({ command: 'mkdir -p sub/deeper && cd sub' }, ctx)).exit_code).toBe(0);
    expect(parse(await terminal.run({ command: 'pwd' }, ctx)).output).toBe(join(box.workspace, 'sub'));
    await terminal.run({ command: 'cd deeper; exit 3' }, ctx);
    expect(parse(await terminal.run({ command: 'pwd' }, ctx)).output).toBe(join(box.workspace, 'sub/deeper'));
    await terminal.run({ command: `cd ${box.home}` }, ctx);
    expect(parse(await terminal.run({ command: 'pwd' }, ctx)).output).toBe(box.home);
  });

  it('resolves relative paths of the file tools against it', async () => {
    const { ctx } = fakeContext(box, { processes: registry });
    mkdirSync(join(box.workspace, 'sub'));
    writeFileSync(join(box.workspace, 'sub', 'notes.txt'), 'inside sub\n');
    writeFileSync(join(box.workspace, 'notes.txt'), 'at the top\n');
    await terminal.run({ command: 'cd sub' }, ctx);
    expect((await readFileTool.run({ path: 'notes.txt' }, ctx)).includes('inside sub')).toBe(true);
    await writeFileTool.run({ path: 'made.txt', content: 'x' }, ctx);
    expect(existsSync(join(box.workspace, 'sub', 'made.txt'))).toBe(true);
    const found = parse(await searchFilesTool.run({ pattern: 'inside', path: '.' }, ctx));
    expect(JSON.stringify(found)).toContain('notes.txt');
    expect(JSON.stringify(found)).not.toContain('at the top');
  });

  it('is not moved by a one-off workdir, and starts over in the workspace when its directory is gone', async () => {
    const { ctx } = fakeContext(box, { processes: registry });
    mkdirSync(join(box.workspace, 'a'));
    mkdirSync(join(box.workspace, 'b'));
    await terminal.run({ command: 'cd a' }, ctx);
    expect(parse(await terminal.run({ command: 'pwd; cd /', workdir: '../b' }, ctx)).output).toBe(join(box.workspace, 'b'));
    expect(parse(await terminal.run({ command: 'pwd' }, ctx)).output).toBe(join(box.workspace, 'a'));
    rmSync(join(box.workspace, 'a'), { recursive: true });
    expect(parse(await terminal.run({ command: 'pwd' }, ctx)).output).toBe(box.workspace);
  });

  it('cleans what the model sees: escapes stripped, keys masked, exit codes explained', async () => {
    const { ctx } = fakeContext(box, { processes: registry });
    const r = parse(await terminal.run({ command: "printf '\\033[32mok\\033[0m sk-abcdefghijklmnopqrstuvwxyz\\n'; grep -q nothing /dev/null" }, ctx));
    expect(r).toEqual({ output: 'ok sk-abc...wxyz', exit_code: 1, error: null, exit_code_meaning: 'No matches found (not an error)' });
    const env = parse(
      await terminal.run(
        { command: 'env', workdir: '.' },
        { ...ctx, host: new NodeToolHost({ homeDir: box.home, env: { SERVICE_TOKEN: 'Opaque1234567890abcdefXYZ' } }) },
      ),
    );
    expect(env.output).toContain('SERVICE_TOKEN=***');
    expect(env.output).not.toContain('Opaque1234567890');
  });
});

describe('background processes', () => {
  let box: Sandbox;
  let registry: ProcessRegistry;
  beforeEach(() => {
    box = sandbox();
    registry = new ProcessRegistry(new NodeToolHost({ homeDir: box.home }));
  });
  afterEach(async () => {
    await registry.stopAll();
    box.cleanup();
  });

  it('starts in the session cwd and answers poll, log, wait and list', async () => {
    const { ctx } = fakeContext(box, { processes: registry });
    mkdirSync(join(box.workspace, 'sub'));
    await terminal.run({ command: 'cd sub' }, ctx);
    const started = parse(await terminal.run({ command: 'for i in 1 2 3; do echo line $i; sleep 0.1; done; pwd; exit 4', background: true }, ctx));
    expect(started).toMatchObject({ output: 'Background process started', exit_code: 0, error: null });
    expect(started.session_id).toMatch(/^proc_[0-9a-f]{12}$/);
    expect(alive(started.pid)).toBe(true);
    const id = started.session_id as string;

    const poll = parse(await proc.run({ action: 'poll', session_id: id }, ctx));
    expect(poll).toMatchObject({ session_id: id, status: 'running', pid: started.pid });

    const waited = parse(await proc.run({ action: 'wait', session_id: id, timeout: 10 }, ctx));
    expect(waited).toMatchObject({ status: 'exited', exit_code: 4, completion_reason: 'exited' });
    expect(waited.output).toBe(`line 1\nline 2\nline 3\n${join(box.workspace, 'sub')}\n`);

    const log = parse(await proc.run({ action: 'log', session_id: id, offset: 1, limit: 2 }, ctx));
    expect(log).toMatchObject({ status: 'exited', output: 'line 2\nline 3', total_lines: 4, showing: '2 lines' });
    expect(parse(await proc.run({ action: 'log', session_id: id, limit: 1 }, ctx)).output).toBe(join(box.workspace, 'sub'));

    const list = parse(await proc.run({ action: 'list' }, ctx));
    expect(list.processes).toHaveLength(1);
    expect(list.processes[0]).toMatchObject({ session_id: id, status: 'exited', exit_code: 4, cwd: join(box.workspace, 'sub') });
    // A prefix of the id works, as in Hermes.
    expect(parse(await proc.run({ action: 'poll', session_id: id.slice(5, 11) }, ctx)).session_id).toBe(id);
  });

  it('wait times out with the process still running, and kill stops its whole group', async () => {
    const { ctx } = fakeContext(box, { processes: registry });
    const started = parse(await terminal.run({ command: 'sleep 30 & echo $! > child.pid; while true; do echo tick; sleep 0.2; done', background: true }, ctx));
    const id = started.session_id as string;
    const waited = parse(await proc.run({ action: 'wait', session_id: id, timeout: 1 }, ctx));
    expect(waited).toMatchObject({ status: 'timeout', process_running: true });
    expect(waited.output).toContain('tick');
    expect(waited.timeout_note).toMatch(/^Wait window of 1s elapsed — the process is still running\. This is not an error\./);
    await until(() => existsSync(join(box.workspace, 'child.pid')));
    const child = Number(readFileSync(join(box.workspace, 'child.pid'), 'utf8'));
    const killed = parse(await proc.run({ action: 'kill', session_id: id }, ctx));
    expect(killed).toMatchObject({ status: 'killed', session_id: id, completion_reason: 'killed', termination_source: 'process.kill' });
    expect(await until(() => !alive(started.pid) && !alive(child))).toBe(true);
    expect(parse(await proc.run({ action: 'poll', session_id: id }, ctx))).toMatchObject({ status: 'exited', exit_code: -15, completion_reason: 'killed' });
    expect(parse(await proc.run({ action: 'kill', session_id: id }, ctx)).status).toBe('already_exited');
  });

  it('takes stdin through write, submit and close', async () => {
    const { ctx } = fakeContext(box, { processes: registry });
    const id = parse(await terminal.run({ command: 'while read -r l; do echo "got $l"; done; echo eof', background: true }, ctx)).session_id as string;
    expect(parse(await proc.run({ action: 'write', session_id: id, data: 'a' }, ctx))).toEqual({ status: 'ok', bytes_written: 1 });
    expect(parse(await proc.run({ action: 'submit', session_id: id, data: 'bc' }, ctx))).toEqual({ status: 'ok', bytes_written: 3 });
    expect(parse(await proc.run({ action: 'close', session_id: id }, ctx))).toEqual({ status: 'ok', message: 'stdin closed' });
    const waited = parse(await proc.run({ action: 'wait', session_id: id, timeout: 5 }, ctx));
    expect(waited).toMatchObject({ status: 'exited', exit_code: 0, output: 'got abc\neof\n' });
    expect(parse(await proc.run({ action: 'write', session_id: id, data: 'x' }, ctx)).status).toBe('already_exited');
  });

  it('bounds the buffer to the last 200,000 characters and masks secrets in what it returns', async () => {
    const { ctx } = fakeContext(box, { processes: registry });
    const id = parse(await terminal.run({ command: "seq 1 100000; printf '\\033[1mtoken ghp_ABCDEFGHIJKLMNOPQRSTUVWX\\033[0m\\n'", background: true }, ctx))
      .session_id as string;
    const waited = parse(await proc.run({ action: 'wait', session_id: id, timeout: 10 }, ctx));
    expect(waited.output).toMatch(/99999\n100000\ntoken ghp_AB\.\.\.UVWX\n$/);
    expect(waited.output.length).toBeLessThanOrEqual(2000);
    const log = parse(await proc.run({ action: 'log', session_id: id, offset: 0, limit: 1 }, ctx));
    // 588,895 characters of seq plus the token line, of which the last 200,000 are kept.
    expect(log.total_lines).toBeLessThan(40_000);
    expect(log.output).not.toBe('1');
    const all = parse(await proc.run({ action: 'log', session_id: id, offset: 0, limit: 100_000 }, ctx)).output as string;
    expect(all.length).toBeLessThanOrEqual(200_000);
    expect(all.endsWith('token ghp_AB...UVWX')).toBe(true);
  });

  it('keeps each session to its own processes and stops them all when the session goes', async () => {
    const a = fakeContext(box, { processes: registry, sessionId: 'A' });
    const b = fakeContext(box, { processes: registry, sessionId: 'B' });
    const ida = parse(await terminal.run({ command: 'sleep 30', background: true }, a.ctx));
    const idb = parse(await terminal.run({ command: 'sleep 30', background: true }, b.ctx));
    expect(parse(await proc.run({ action: 'poll', session_id: ida.session_id }, b.ctx))).toEqual({
      status: 'not_found',
      error: `No process with ID ${ida.session_id}`,
    });
    expect(parse(await proc.run({ action: 'list' }, b.ctx)).processes.map((p: any) => p.session_id)).toEqual([idb.session_id]);
    expect(await registry.stopSession('A')).toBe(1);
    expect(await until(() => !alive(ida.pid))).toBe(true);
    expect(alive(idb.pid)).toBe(true);
    expect(registry.list('A')).toEqual([]);
    await registry.stopAll();
    expect(await until(() => !alive(idb.pid))).toBe(true);
  });

  it('answers bad actions as Hermes does', async () => {
    const { ctx } = fakeContext(box, { processes: registry });
    expect(parse(await proc.run({ action: 'poll' }, ctx))).toEqual({ error: 'session_id is required for poll' });
    expect(parse(await proc.run({ action: 'dance', session_id: 'x' }, ctx))).toEqual({
      error: 'Unknown process action: dance. Use: list, poll, log, wait, kill, write, submit, close',
    });
    expect(parse(await proc.run({ action: 'wait', session_id: 'proc_000000000000', timeout: 0 }, ctx)).error).toBe('timeout must be positive (got 0)');
    const started = parse(await terminal.run({ command: 'true', background: true, notify_on_complete: true }, ctx));
    expect(started.notify_unsupported).toMatch(/poll/);
    expect(parse(await terminal.run({ command: 'sleep 1', background: true }, fakeContext(box).ctx)).error).toMatch(/not available/);
  });
});
