import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeToolHost } from '../../../src/adapters/platform/node-tool-host.js';
import { terminalTool } from '../../../src/agent/tools/terminal.js';
import { fakeContext, parse, sandbox, type Sandbox } from './helpers.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe('terminal tool', () => {
  let box: Sandbox;
  const terminal = terminalTool({ defaultTimeoutSeconds: 180 });
  beforeEach(() => {
    box = sandbox();
  });
  afterEach(() => box.cleanup());

  it('runs in the workspace and reports exit code 0', async () => {
    const { ctx, checked } = fakeContext(box);
    const r = parse(await terminal.run({ command: 'pwd; echo "$HERMES_WEBUI"' }, ctx));
    // Hermes trims the output and always says `error`.
    expect(r).toEqual({ output: `${box.workspace}\n1`, exit_code: 0, error: null });
    expect(checked).toEqual(['pwd; echo "$HERMES_WEBUI"']);
  });

  it('captures stderr merged with stdout in arrival order, and non-zero exit codes', async () => {
    const { ctx } = fakeContext(box);
    const r = parse(await terminal.run({ command: 'echo one; sleep 0.2; echo two >&2; sleep 0.2; echo three; exit 3' }, ctx));
    expect(r.output).toBe('one\ntwo\nthree');
    expect(r.exit_code).toBe(3);
    expect(r.error).toBeNull();
  });

  it('resolves workdir against the workspace and rejects a missing one', async () => {
    const { ctx } = fakeContext(box);
    await terminal.run({ command: 'mkdir -p sub/dir' }, ctx);
    const r = parse(await terminal.run({ command: 'pwd', workdir: 'sub/dir' }, ctx));
    expect(r.output.trim()).toBe(join(box.workspace, 'sub/dir'));
    const abs = parse(await terminal.run({ command: 'pwd', workdir: box.home }, ctx));
    expect(abs.output.trim()).toBe(box.home);
    const missing = parse(await terminal.run({ command: 'pwd', workdir: 'nope' }, ctx));
    expect(missing.exit_code).toBe(-1);
    expect(missing.error).toMatch(/not a directory/);
  });

  it('returns the BLOCKED message and does not run the command', async () => {
    const blocked = 'BLOCKED: rm -rf needs approval. Do not retry.';
    const { ctx } = fakeContext(box, { checkCommand: async () => blocked });
    const out = await terminal.run({ command: 'touch side-effect.txt' }, ctx);
    expect(out).toBe(blocked);
    expect(existsSync(join(box.workspace, 'side-effect.txt'))).toBe(false);
    // The same command runs when the gate allows it: the check above is what stopped it.
    const allowed = fakeContext(box);
    await terminal.run({ command: 'touch side-effect.txt' }, allowed.ctx);
    expect(existsSync(join(box.workspace, 'side-effect.txt'))).toBe(true);
  });

  it('kills a command at its timeout, with the whole process group, and says so', async () => {
    const { ctx } = fakeContext(box);
    const started = Date.now();
    // Quoted, so the foreground '&' rule (which reads outside quotes) lets it through.
    const r = parse(await terminal.run({ command: "sh -c 'sleep 30 & echo $! > bg.pid; sleep 30'", timeout: 1 }, ctx));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.error).toBe('Command timed out after 1 seconds');
    expect(r.exit_code).toBe(124);
    const bg = Number(readFileSync(join(box.workspace, 'bg.pid'), 'utf8'));
    expect(await waitFor(() => !alive(bg))).toBe(true);
  });

  it('stops a command when the run is aborted', async () => {
    const ac = new AbortController();
    const { ctx } = fakeContext(box, { signal: ac.signal });
    const started = Date.now();
    setTimeout(() => ac.abort(), 300);
    const r = parse(await terminal.run({ command: 'echo $$ > sh.pid; sleep 30' }, ctx));
    expect(Date.now() - started).toBeLessThan(4000);
    expect(r.exit_code).toBe(130);
    expect(r.error).toMatch(/interrupted/);
    const sh = Number(readFileSync(join(box.workspace, 'sh.pid'), 'utf8'));
    expect(await waitFor(() => !alive(sh))).toBe(true);
  });

  it('keeps 40% head and 60% tail of long output, saying how much of how much was dropped (Hermes)', async () => {
    const { ctx } = fakeContext(box);
    const r = parse(await terminal.run({ command: 'seq 1 100000' }, ctx));
    expect(r.exit_code).toBe(0);
    // seq 1 100000 prints 588,895 characters; Hermes keeps 20,000 + 30,000 of them.
    const notice = '\n\n... [OUTPUT TRUNCATED - 538895 chars omitted out of 588895 total] ...\n\n';
    const all = Array.from({ length: 100000 }, (_, i) => `${i + 1}\n`).join('');
    expect(r.output).toBe((all.slice(0, 20_000) + notice + all.slice(-30_000)).trim());
  });

  it('uses tool_output.max_bytes as the budget', async () => {
    const { ctx } = fakeContext(box);
    const r = parse(await terminalTool({ defaultTimeoutSeconds: 180, maxOutputChars: 10 }).run({ command: "printf 'abcdefghijklmnopqrstuvwxyz'" }, ctx));
    expect(r.output).toBe('abcd\n\n... [OUTPUT TRUNCATED - 16 chars omitted out of 26 total] ...\n\nuvwxyz');
  });

  it("refuses a foreground timeout over 600 s with Hermes' message, runs 600 s, and takes its default from the factory", async () => {
    const calls: number[] = [];
    const host = new NodeToolHost({ homeDir: box.home });
    const exec = host.exec.bind(host);
    host.exec = (req) => {
      calls.push(req.timeoutMs);
      return exec(req);
    };
    const { ctx, checked } = fakeContext(box, { host });
    const refused = parse(await terminal.run({ command: 'true', timeout: 601 }, ctx));
    expect(refused).toEqual({
      error: 'Foreground timeout 601s exceeds the maximum of 600s. Use background=true with notify_on_complete=true for long-running commands.',
    });
    expect(checked).toEqual([]);
    await terminal.run({ command: 'true', timeout: 600 }, ctx);
    await terminalTool({ defaultTimeoutSeconds: 42 }).run({ command: 'true' }, ctx);
    await terminal.run({ command: 'true', timeout: '7' }, ctx);
    expect(calls).toEqual([600_000, 42_000, 7_000]);
    expect((terminalTool({ defaultTimeoutSeconds: 42 }).spec.parameters as any).properties.timeout.default).toBe(42);
  });

  it('rejects a missing command without asking the gate', async () => {
    const { ctx, checked } = fakeContext(box);
    expect(parse(await terminal.run({}, ctx)).error).toBe('command is required');
    expect(checked).toEqual([]);
  });
});

describe('NodeToolHost.exec', () => {
  it('truncates to maxOutputChars keeping head and tail', async () => {
    const host = new NodeToolHost();
    const r = await host.exec({
      command: "printf 'A%.0s' $(seq 1 100); printf 'B%.0s' $(seq 1 100)",
      cwd: '/',
      timeoutMs: 5000,
      signal: new AbortController().signal,
      maxOutputChars: 20,
    });
    expect(r.truncated).toBe(true);
    expect(r.output).toBe('AAAAAAAA\n\n... [OUTPUT TRUNCATED - 180 chars omitted out of 200 total] ...\n\nBBBBBBBBBBBB');
  });

  it('does not wait for background children holding the pipes', async () => {
    const host = new NodeToolHost();
    const started = Date.now();
    const r = await host.exec({ command: 'sleep 5 & echo started', cwd: '/', timeoutMs: 10_000, signal: new AbortController().signal, maxOutputChars: 1000 });
    expect(r).toMatchObject({ output: 'started\n', exitCode: 0, timedOut: false });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('drops provider keys from the environment', async () => {
    const { commandEnv } = await import('../../../src/adapters/platform/node-tool-host.js');
    const env = commandEnv({ OPENAI_API_KEY: 'x', ANTHROPIC_AUTH_TOKEN: 'y', OPENROUTER_KEY: 'z', GITHUB_TOKEN: 'g', PATH: '/bin' });
    expect(env).toEqual({ GITHUB_TOKEN: 'g', PATH: '/bin', HERMES_WEBUI: '1' });
  });
});
