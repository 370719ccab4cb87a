import { describe, expect, it } from 'vitest';
import { parseAgentConfig } from '../../../src/agent/config.js';
import { stripAnsi } from '../../../src/agent/tools/ansi.js';
import { OutputWindow, RollingBuffer, truncateOutput } from '../../../src/agent/tools/output-window.js';
import { dumpsSecrets, maskToken, redactTerminalOutput } from '../../../src/agent/tools/terminal-redact.js';
import { exitCodeMeaning, foregroundGuidance, workdirError } from '../../../src/agent/tools/terminal-rules.js';

describe('stripAnsi (Hermes tools/ansi_strip.py)', () => {
  const table: Array<[string, string, string]> = [
    ['SGR colours', '\x1b[1;31mred\x1b[0m plain', 'red plain'],
    ['cursor moves and erase', 'a\x1b[2K\x1b[1Gb\x1b[?25l', 'ab'],
    ['OSC title ended by BEL', '\x1b]0;my title\x07text', 'text'],
    ['OSC 8 hyperlink ended by ST', '\x1b]8;;https://x.test\x1b\\link\x1b]8;;\x1b\\', 'link'],
    ['DCS string', '\x1bPq#0;2;0;0;0\x1b\\after', 'after'],
    ['charset selection (nF)', '\x1b(Bok', 'ok'],
    ['single-character escape', '\x1b=keypad\x1b>', 'keypad'],
    ['8-bit CSI', '\x9b31mred', 'red'],
    ['other C1 controls', 'a\x85b', 'ab'],
    ['tabs, newlines and CR stay', 'a\tb\r\nc', 'a\tb\r\nc'],
  ];
  it.each(table)('%s', (_name, input, expected) => {
    expect(stripAnsi(input)).toBe(expected);
  });
  it('returns clean text as the same string', () => {
    const s = 'no escapes here';
    expect(stripAnsi(s)).toBe(s);
  });
});

describe('truncation (40% head, 60% tail, Hermes notice)', () => {
  it('leaves output within the budget alone and cuts longer output', () => {
    expect(truncateOutput('x'.repeat(50), 50)).toBe('x'.repeat(50));
    expect(truncateOutput('0123456789ABCDEFGHIJ', 10)).toBe('0123\n\n... [OUTPUT TRUNCATED - 10 chars omitted out of 20 total] ...\n\nEFGHIJ');
  });
  it('the streaming window gives what a cut of the whole text gives, whatever the chunks', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i}\n`).join('');
    for (const chunk of [1, 7, 100, 4096, text.length]) {
      const w = new OutputWindow(1000);
      for (let i = 0; i < text.length; i += chunk) w.push(text.slice(i, i + chunk));
      expect(w.text()).toBe(truncateOutput(text, 1000));
      expect(w.truncated).toBe(true);
    }
  });
  it('a rolling buffer keeps the last characters only', () => {
    const b = new RollingBuffer(10);
    for (let i = 0; i < 100; i++) b.push(String(i % 10));
    expect(b.text()).toBe('0123456789');
  });
});

describe('redactTerminalOutput (Hermes agent/redact.py, terminal policy)', () => {
  const key = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123';
  const table: Array<[string, string, string, string]> = [
    ['a vendor key keeps 6 + 4 characters', 'echo $X', `key: ${key}`, 'key: sk-pro...0123'],
    ['a short prefixed token is fully masked', 'cat notes', 'token ghp_abcdefghij1.', 'token ***.'],
    [
      'GitHub, Slack, AWS and HF shapes',
      'cat log',
      'ghp_ABCDEFGHIJKLMNOPQRSTUV AKIAABCDEFGHIJKLMNOP xoxb-123456789012-abcdef hf_abcdefghijklmnopqrst',
      'ghp_AB...STUV AKIAAB...MNOP xoxb-1...cdef hf_abc...qrst',
    ],
    ['not inside a longer identifier', 'cat x', 'task-list mysk-abcdefghijklmnop', 'task-list mysk-abcdefghijklmnop'],
    ['Authorization header keeps its scheme', 'curl -v x', 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz', 'Authorization: Bearer abcdef...wxyz'],
    ['API-key headers', 'curl -v x', 'x-api-key: opaque-value-1234567890', 'x-api-key: opaque...7890'],
    ['a private key block', 'cat id', '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----', '[REDACTED PRIVATE KEY]'],
    ['a database URL password', 'cat app.log', 'postgres://app:hunter2@db:5432/main', 'postgres://app:***@db:5432/main'],
    ['a token as URL userinfo', 'git remote -v', 'https://abcdefghijklmnopqrstuvwxyz@github.com/o/r', 'https://abcdef...wxyz@github.com/o/r'],
    ['a JWT', 'cat t', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig_abcdef', 'eyJhbG...cdef'],
    ['a Telegram bot token', 'cat t', 'bot123456789:AAbbCCddEEffGGhhIIjjKKllMMnnOOppQQ', 'bot123456789:***'],
    ['a phone number', 'cat t', 'call +14155552671 now', 'call +141****2671 now'],
    ['source code keeps KEY=value', 'cat app.py', 'MAX_TOKENS=100\nAPI_KEY=abcdefghijklmnopqrstuv', 'MAX_TOKENS=100\nAPI_KEY=abcdefghijklmnopqrstuv'],
    // Hermes' uppercase pass masks to `abc123...ng99`, then its case-insensitive pass masks that again.
    [
      'an env dump masks opaque assignments',
      'env',
      'MY_SERVICE_TOKEN=abc123randomstring99\nMAX_TOKENS=100\nPATH=/usr/bin',
      'MY_SERVICE_TOKEN=***\nMAX_TOKENS=100\nPATH=/usr/bin',
    ],
    [
      'an env dump keeps references and paths',
      'printenv',
      'SSH_AUTH_SOCK=/run/user/1000/ssh.sock\nGH_TOKEN=$OTHER',
      'SSH_AUTH_SOCK=/run/user/1000/ssh.sock\nGH_TOKEN=$OTHER',
    ],
    ['a .env read masks short passwords too', 'cat .env', 'DB_PASSWORD=hunter2\nDEBUG=1', 'DB_PASSWORD=***\nDEBUG=1'],
    ['JSON fields of a secret file', 'cat ~/.hermes/config.yaml', '{"api_key": "abcdefghijklmnopqrstuv"}', '{"api_key": "abcdef...stuv"}'],
    ['YAML fields of a secret file', 'head ~/.hermes/config.yaml', 'model:\n  api_key: abcdefghijklmnopqrstuv', 'model:\n  api_key: abcdef...stuv'],
    ['a form body', 'cat body', 'user=bob&password=hunter2&x=1', 'user=bob&password=***&x=1'],
  ];
  it.each(table)('%s', (_name, command, input, expected) => {
    expect(redactTerminalOutput(input, command, '/home/u/.hermes')).toBe(expected);
  });
  it('masks tokens by Hermes’ 18-character floor', () => {
    expect(maskToken('a'.repeat(17))).toBe('***');
    expect(maskToken('abcdefghijklmnopqr')).toBe('abcdef...opqr');
    expect(maskToken('')).toBe('***');
  });
  const dumps: Array<[string, boolean]> = [
    ['env', true],
    ['env | grep PATH', true],
    ['export', true],
    ['ls; printenv HOME', true],
    ['cat .env', true],
    ['tail -n 5 app/.env.local', true],
    ['grep KEY ~/.bashrc', true],
    ['grep .bashrc app.py', false],
    ['cat config.yaml', false],
    ['cat ~/.hermes/config.yaml', true],
    ['cat $HERMES_HOME/config.yaml', true],
    ['cat /home/u/.hermes/config.yaml', true],
    ["echo 'env'", false],
    ['python app.py', false],
  ];
  it.each(dumps)('%s dumps secrets: %s', (command, expected) => {
    expect(dumpsSecrets(command, '/home/u/.hermes')).toBe(expected);
  });
});

describe('terminal rules', () => {
  const guidance: Array<[string, RegExp | null]> = [
    ['npm run dev', /long-lived server\/watch/],
    ['python3 -m http.server 8000', /long-lived server\/watch/],
    ['sleep 10 &', /'&' backgrounding/],
    ['a & b', /'&' backgrounding/],
    ['nohup ./serve', /nohup\/disown\/setsid/],
    ['make && setsid x', /nohup\/disown\/setsid/],
    ['git commit -m "use nohup & setsid"', null],
    ['vite --help', null],
    ['ls && echo ok', null],
    ['echo a 2>&1', null],
  ];
  it.each(guidance)('foreground %s', (command, expected) => {
    const r = foregroundGuidance(command);
    if (expected) expect(r).toMatch(expected);
    else expect(r).toBeNull();
  });
  const exits: Array<[string, number, string | null]> = [
    ['grep foo x', 1, 'No matches found (not an error)'],
    ['cat x | /usr/bin/grep foo', 1, 'No matches found (not an error)'],
    ['diff a b', 1, 'Files differ (expected, not an error)'],
    ['LC_ALL=C test -f x', 1, 'Condition evaluated to false (expected, not an error)'],
    ['curl http://x', 7, 'Failed to connect to host'],
    ['grep foo x', 2, null],
    ['false', 1, null],
    ['constructor', 1, null],
    ['grep foo x', 0, null],
  ];
  it.each(exits)('%s exiting %i', (command, code, expected) => {
    expect(exitCodeMeaning(command, code)).toBe(expected);
  });
  it('refuses workdirs with shell syntax, naming the character as Hermes does', () => {
    expect(workdirError('/tmp/a b/c-d_e.f~+@=,')).toBeNull();
    expect(workdirError('/tmp;rm -rf /')).toBe(
      "Blocked: workdir contains disallowed character ';'. Use a simple filesystem path without shell metacharacters.",
    );
    expect(workdirError('$(id)')).toBe("Blocked: workdir contains disallowed character '$'. Use a simple filesystem path without shell metacharacters.");
  });
});

describe('terminal config keys (tool_output.max_bytes, security.redact_secrets)', () => {
  const parse = (configYaml: string | null, env: Record<string, string> = {}) => parseAgentConfig({ configYaml, dotenv: null, env }).terminalOutput;
  it('defaults to 50,000 characters and masking on', () => {
    expect(parse(null)).toEqual({ maxChars: 50_000, redactSecrets: true });
    expect(parse('model:\n  default: m\n')).toEqual({ maxChars: 50_000, redactSecrets: true });
  });
  it('reads them, and a malformed value means the default, never a broken config', () => {
    expect(parse('tool_output:\n  max_bytes: 1200\nsecurity:\n  redact_secrets: false\n')).toEqual({ maxChars: 1200, redactSecrets: false });
    expect(parse('tool_output:\n  max_bytes: lots\nsecurity: yes\n')).toEqual({ maxChars: 50_000, redactSecrets: true });
    expect(parse('tool_output: [1, 2]\n')).toEqual({ maxChars: 50_000, redactSecrets: true });
    expect(parse('tool_output:\n  max_bytes: 0\n').maxChars).toBe(50_000);
  });
  it('HERMES_REDACT_SECRETS wins over config.yaml', () => {
    expect(parse('security:\n  redact_secrets: true\n', { HERMES_REDACT_SECRETS: 'false' }).redactSecrets).toBe(false);
    expect(parse('security:\n  redact_secrets: false\n', { HERMES_REDACT_SECRETS: '1' }).redactSecrets).toBe(true);
  });
});
