import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileEditGate } from '../../../src/agent/builtin/file-edit-approval.js';
import { parseAgentConfig } from '../../../src/agent/config.js';
import { patchTool } from '../../../src/agent/tools/patch.js';
import { writeFileTool } from '../../../src/agent/tools/write-file.js';
import type { ApprovalChoice } from '../../../src/agent/tools/types.js';
import { InteractionHub } from '../../../src/runs/interactions.js';
import { fakeContext, parse, sandbox, type Sandbox } from './helpers.js';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

/**
 * A tool context with the runtime's real gate over a real hub; `answer` is what the person
 * presses when the card appears (null: nobody answers). Approval events are kept.
 */
function gated(yaml: string, answer: ApprovalChoice | null = 'once', options: { unattended?: 'subagent' | 'cron'; beforeAnswer?: () => void } = {}) {
  const config = parseAgentConfig({ configYaml: `model:\n  default: m\n${yaml}`, dotenv: null, env: {} });
  const hub = new InteractionHub(() => Date.now());
  const fake = fakeContext(box);
  const approvals: Array<Record<string, any>> = [];
  fake.ctx.fileEdits = fileEditGate({
    config,
    hub,
    sessionId: fake.ctx.sessionId,
    streamId: 'stream-1',
    signal: fake.ctx.signal,
    ...(options.unattended ? { unattended: options.unattended } : {}),
    event: (name, data) => {
      if (name !== 'approval') return;
      approvals.push(data as Record<string, any>);
      // The pending list carries the same diff as the event.
      expect(hub.pendingApproval(fake.ctx.sessionId).pending?.diff).toBe((data as { diff?: string }).diff);
      options.beforeAnswer?.();
      if (answer) hub.respondApproval(fake.ctx.sessionId, answer, (data as { approval_id: string }).approval_id);
    },
  });
  return { ctx: fake.ctx, approvals, hub };
}

const targets = () => ({
  inside: join(box.workspace, 'notes.txt'),
  outside: join(box.root, 'elsewhere', 'notes.txt'),
  protected: join(box.workspace, '.env'),
});

describe('approvals.file_edits: which write_file calls wait for a yes', () => {
  const expected: Record<string, Record<'inside' | 'outside' | 'protected', boolean>> = {
    always: { inside: true, outside: true, protected: true },
    outside_workspace: { inside: false, outside: true, protected: true },
    never: { inside: false, outside: false, protected: false },
  };
  for (const [mode, cases] of Object.entries(expected)) {
    for (const [where, asks] of Object.entries(cases) as Array<['inside' | 'outside' | 'protected', boolean]>) {
      it(`${mode} × ${where}: ${asks ? 'asks' : 'writes at once'}`, async () => {
        const { ctx, approvals } = gated(`approvals:\n  file_edits: ${mode}\n`);
        const path = targets()[where];
        const out = parse(await writeFileTool.run({ path, content: 'hello\n' }, ctx));
        expect(out.success).toBe(true);
        expect(readFileSync(path, 'utf8')).toBe('hello\n');
        expect(approvals.length).toBe(asks ? 1 : 0);
        if (asks) {
          expect(approvals[0]!.tool).toBe('write_file');
          expect(approvals[0]!.description).toMatch(
            where === 'protected'
              ? /^Edit of a protected file: \.env$/
              : where === 'outside'
                ? /^Edit outside the workspace: \//
                : /approvals\.file_edits: always/,
          );
        }
      });
    }
  }

  it('unset means outside_workspace; approvals.mode: off asks nothing; yolo asks nothing', async () => {
    const unset = gated('');
    await writeFileTool.run({ path: 'in.txt', content: 'x' }, unset.ctx);
    await writeFileTool.run({ path: targets().outside, content: 'x' }, unset.ctx);
    expect(unset.approvals).toHaveLength(1);
    const off = gated('approvals:\n  mode: off\n  file_edits: always\n');
    await writeFileTool.run({ path: targets().outside, content: 'y' }, off.ctx);
    expect(off.approvals).toHaveLength(0);
    const yolo = gated('approvals:\n  file_edits: always\n');
    yolo.hub.setYolo(yolo.ctx.sessionId, true);
    await writeFileTool.run({ path: 'in.txt', content: 'z' }, yolo.ctx);
    expect(yolo.approvals).toHaveLength(0);
    expect(readFileSync(join(box.workspace, 'in.txt'), 'utf8')).toBe('z');
  });

  it('protected also covers .git/** and home start-up files; .env.example is ordinary work', async () => {
    const { ctx, approvals } = gated('');
    await writeFileTool.run({ path: '.env.example', content: 'A=\n' }, ctx);
    expect(approvals).toHaveLength(0);
    await writeFileTool.run({ path: '.git/hooks/pre-commit', content: '#!/bin/sh\n' }, ctx);
    await writeFileTool.run({ path: '~/.bashrc', content: 'alias x=y\n' }, ctx);
    expect(approvals.map((a) => a.description)).toEqual([
      'Edit of a protected file: .git/hooks/pre-commit',
      `Edit of a protected file: ${join(box.home, '.bashrc')}`,
    ]);
  });

  it('a symlink in the workspace that leads outside it counts as outside', async () => {
    const { symlinkSync } = await import('node:fs');
    mkdirSync(join(box.root, 'out'));
    symlinkSync(join(box.root, 'out'), join(box.workspace, 'link'));
    const { ctx, approvals } = gated('');
    await writeFileTool.run({ path: 'link/f.txt', content: 'x' }, ctx);
    expect(approvals).toHaveLength(1);
  });

  it('the hard refusals stay refusals under never (no card, nothing written)', async () => {
    const { ctx, approvals } = gated('approvals:\n  file_edits: never\n');
    const out = parse(await writeFileTool.run({ path: join(box.hermesHome, 'config.yaml'), content: 'x' }, ctx));
    expect(out.error).toMatch(/^Refusing to write to Hermes config file/);
    expect(approvals).toHaveLength(0);
    expect(existsSync(join(box.hermesHome, 'config.yaml'))).toBe(false);
  });
});

describe('the approval event carries the diff the call would make', () => {
  it('write_file creating a file: a /dev/null diff, offered once/session/deny', async () => {
    const { ctx, approvals } = gated('approvals:\n  file_edits: always\n');
    await writeFileTool.run({ path: 'new.txt', content: 'one\ntwo\n' }, ctx);
    const a = approvals[0]!;
    expect(a.path).toBe('new.txt');
    expect(a.command).toBe('write_file new.txt');
    expect(a.diff).toBe(['--- /dev/null', '+++ b/new.txt', '@@ -0,0 +1,2 @@', '+one', '+two', ''].join('\n'));
    expect(a.choices).toEqual(['once', 'session', 'deny']);
    expect(a.allow_permanent).toBe(false);
  });

  it('write_file overwriting: the old lines removed, the new added', async () => {
    writeFileSync(join(box.workspace, 'f.txt'), 'keep\nold\n');
    const { ctx, approvals } = gated('approvals:\n  file_edits: always\n');
    await writeFileTool.run({ path: 'f.txt', content: 'keep\nnew\n' }, ctx);
    expect(approvals[0]!.diff).toBe(['--- a/f.txt', '+++ b/f.txt', '@@ -1,2 +1,2 @@', ' keep', '-old', '+new', ''].join('\n'));
  });

  it('patch: the matched replacement, with the path shown absolute outside the workspace', async () => {
    const outside = join(box.root, 'conf.ini');
    writeFileSync(outside, 'a = 1\nb = 2\n');
    const { ctx, approvals } = gated('');
    const out = parse(await patchTool.run({ mode: 'replace', path: outside, old_string: 'b = 2', new_string: 'b = 3' }, ctx));
    expect(out.success).toBe(true);
    expect(approvals[0]!.tool).toBe('patch');
    expect(approvals[0]!.path).toBe(outside);
    expect(approvals[0]!.diff).toContain(`--- a${outside}\n+++ b${outside}\n`);
    expect(approvals[0]!.diff).toContain('-b = 2\n+b = 3\n');
    expect(readFileSync(outside, 'utf8')).toBe('a = 1\nb = 3\n');
  });
});

describe('the answer', () => {
  it('deny: the file stays byte-identical and the model is told it was denied', async () => {
    const file = join(box.workspace, '.git', 'config');
    mkdirSync(join(box.workspace, '.git'));
    const original = Buffer.from('[core]\r\n\tbare = false\r\n\u00e9\n');
    writeFileSync(file, original);
    const { ctx, approvals } = gated('', 'deny');
    const patched = parse(await patchTool.run({ mode: 'replace', path: '.git/config', old_string: 'bare = false', new_string: 'bare = true' }, ctx));
    expect(patched.error).toMatch(/^BLOCKED: the user denied this edit \(Edit of a protected file: \.git\/config\); \.git\/config was not changed/);
    const written = parse(await writeFileTool.run({ path: '.git/config', content: 'gone' }, ctx));
    expect(written.error).toMatch(/^BLOCKED: the user denied/);
    expect(approvals).toHaveLength(2);
    expect(readFileSync(file).equals(original)).toBe(true);
  });

  it('a denied create leaves no file behind', async () => {
    const { ctx } = gated('', 'deny');
    await writeFileTool.run({ path: targets().outside, content: 'x' }, ctx);
    expect(existsSync(targets().outside)).toBe(false);
  });

  it('timeout is a denial: nothing written, the model told it timed out', async () => {
    writeFileSync(targets().protected, 'SECRET=1\n');
    const { ctx } = gated('approvals:\n  timeout: 0.05\n', null);
    const out = parse(await writeFileTool.run({ path: '.env', content: 'SECRET=2\n' }, ctx));
    expect(out.error).toMatch(/^BLOCKED: the approval request timed out/);
    expect(readFileSync(targets().protected, 'utf8')).toBe('SECRET=1\n');
  });

  it('"Allow for session" lets later edits of that file through, not of another', async () => {
    const { ctx, approvals } = gated('approvals:\n  file_edits: always\n', 'session');
    await writeFileTool.run({ path: 'a.txt', content: '1' }, ctx);
    await writeFileTool.run({ path: 'a.txt', content: '2' }, ctx);
    await writeFileTool.run({ path: 'b.txt', content: '3' }, ctx);
    expect(approvals.map((a) => a.path)).toEqual(['a.txt', 'b.txt']);
    expect(readFileSync(join(box.workspace, 'a.txt'), 'utf8')).toBe('2');
  });

  it('a file changed while the card waited is not written, even after a yes', async () => {
    const file = join(box.workspace, 'race.txt');
    writeFileSync(file, 'v1\n');
    const { ctx } = gated('approvals:\n  file_edits: always\n', 'once', { beforeAnswer: () => writeFileSync(file, 'v2 by someone else\n') });
    const out = parse(await patchTool.run({ mode: 'replace', path: 'race.txt', old_string: 'v1', new_string: 'mine' }, ctx));
    expect(out.error).toMatch(/changed while the edit waited for approval, so nothing was written/);
    expect(readFileSync(file, 'utf8')).toBe('v2 by someone else\n');
  });

  it('unattended: a subagent and a scheduled run are refused by default, allowed by their keys', async () => {
    for (const [kind, yaml, pattern] of [
      ['subagent', '', /subagents cannot ask for approval.*delegation\.subagent_auto_approve/],
      ['cron', '', /scheduled task runs with nobody present.*approvals\.cron_mode: approve/],
    ] as const) {
      const { ctx, approvals } = gated(yaml, 'once', { unattended: kind });
      const out = parse(await writeFileTool.run({ path: targets().outside, content: kind }, ctx));
      expect(out.error).toMatch(pattern);
      expect(approvals).toHaveLength(0);
      expect(existsSync(targets().outside)).toBe(false);
    }
    const sub = gated('delegation:\n  subagent_auto_approve: true\n', null, { unattended: 'subagent' });
    expect(parse(await writeFileTool.run({ path: targets().outside, content: 's' }, sub.ctx)).success).toBe(true);
    const cron = gated('approvals:\n  cron_mode: approve\n', null, { unattended: 'cron' });
    expect(parse(await writeFileTool.run({ path: targets().outside, content: 'c' }, cron.ctx)).success).toBe(true);
    expect(readFileSync(targets().outside, 'utf8')).toBe('c');
  });
});

describe('config: approvals.file_edits', () => {
  const mode = (yaml: string) => parseAgentConfig({ configYaml: `model:\n  default: m\n${yaml}`, dotenv: null, env: {} }).approvals.fileEdits;
  it('reads always / never / outside_workspace; unset, unknown and empty mean outside_workspace', () => {
    expect(mode('')).toBe('outside_workspace');
    expect(mode('approvals:\n  file_edits: always\n')).toBe('always');
    expect(mode('approvals:\n  file_edits: " Never "\n')).toBe('never');
    expect(mode('approvals:\n  file_edits: outside_workspace\n')).toBe('outside_workspace');
    expect(mode('approvals:\n  file_edits: sometimes\n')).toBe('outside_workspace');
    expect(mode('approvals:\n  file_edits: false\n')).toBe('never');
    expect(mode('approvals:\n  file_edits: off\n')).toBe('never');
  });
});
