import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NodePtyHost } from '../../src/adapters/platform/node-pty-host.js';
import { TerminalRegistry } from '../../src/terminal/registry.js';
import type { TerminalFrame } from '../../src/terminal/terminal.js';
import { trackedEnv } from '../helpers/processes.js';

describe('the script(1) fallback, where node-pty cannot load', () => {
  it('runs the shell on a pty in the directory, without provider keys, and reports its exit code', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hermes-pty-'));
    try {
      const host = new NodePtyHost({
        engine: 'script',
        source: { PATH: process.env.PATH, SHELL: '/bin/bash', OPENAI_API_KEY: 'sk-leak', HERMES_WEBUI_PASSWORD: 'pw' },
        extraEnv: trackedEnv(),
      });
      expect(await host.kind()).toBe('script');
      const pty = await host.spawn({ cwd: dir, rows: 24, cols: 80 });
      let out = '';
      pty.onData((t) => (out += t));
      const exited = new Promise<number | null>((resolve) => pty.onExit((code) => resolve(code)));
      pty.write('test -t 0 && echo "tty-$((1+1))"; pwd; echo "[$OPENAI_API_KEY$HERMES_WEBUI_PASSWORD]$TERM"; exit 5\n');
      expect(await exited).toBe(5);
      expect(out).toContain('tty-2');
      expect(out).toContain(dir);
      expect(out).toContain('[]xterm-256color');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports a shell that cannot start as terminal_error on the stream', async () => {
    // No `script` to be found: the spawn fails.
    const host = new NodePtyHost({ engine: 'script', source: { PATH: '/nonexistent' } });
    const registry = new TerminalRegistry({ host });
    const term = await registry.start('s1', tmpdir(), { rows: 24, cols: 80 });
    expect(term.closed).toBe(true);
    const frames: TerminalFrame[] = [];
    term.attach((f) => frames.push(f));
    expect(frames.map((f) => f.event)).toEqual(['terminal_error', 'terminal_closed']);
    expect(frames[0]!.data).toMatchObject({ error: expect.stringMatching(/Could not start the shell: .*ENOENT/) });
    // The next start replaces it.
    await registry.closeAll();
    expect(registry.count).toBe(0);
  });
});
