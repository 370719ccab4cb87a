import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { addToCommandAllowlist } from '../../../src/agent/approvals/allowlist-yaml.js';

/** A config written by hand: odd comment spacing, quotes, flow maps, a leading-zero number, a long line. */
const CONFIG = `# Hermes config — edited by hand
model:
  default: "anthropic/claude-sonnet-4.6"   # main model
  provider: openrouter

approvals:
  mode: manual      # ask every time
  deny: ['rm -rf *', "sudo *"]
  timeout: 0300
terminal: {backend: local, timeout: 180}
prompt: this is a long plain scalar that runs well past eighty characters and must not be folded by the printer
`;

describe('addToCommandAllowlist', () => {
  it('appends a new list at the end, leaving every existing byte alone', () => {
    const out = addToCommandAllowlist(CONFIG, ['recursive delete', 'shell command via -c/-lc flag']);
    expect(out).toBe(`${CONFIG}command_allowlist:\n  - recursive delete\n  - shell command via -c/-lc flag\n`);
    expect(parse(addToCommandAllowlist(CONFIG, ["start gateway outside systemd (use 'systemctl --user restart hermes-gateway')"])).command_allowlist).toEqual([
      "start gateway outside systemd (use 'systemctl --user restart hermes-gateway')",
    ]);
  });

  it('adds to an existing block list under its last item, keeping comments and the other keys', () => {
    const text = `${CONFIG}# approved for good
command_allowlist:
  - recursive delete   # from the CLI
  - "SQL DROP"
# trailing note
compression: {enabled: true}
`;
    const out = addToCommandAllowlist(text, ['disk copy', 'SQL DROP', 'disk copy']);
    expect(out).toBe(text.replace('  - "SQL DROP"\n', '  - "SQL DROP"\n  - disk copy\n'));
    expect(parse(out).command_allowlist).toEqual(['recursive delete', 'SQL DROP', 'disk copy']);
  });

  it("follows the file's own list indentation", () => {
    const text = 'approvals:\n    mode: manual\ncommand_allowlist:\n- a\n- b\n';
    expect(addToCommandAllowlist(text, ['c'])).toBe('approvals:\n    mode: manual\ncommand_allowlist:\n- a\n- b\n- c\n');
    expect(addToCommandAllowlist('approvals:\n    mode: manual\n', ['c'])).toBe('approvals:\n    mode: manual\ncommand_allowlist:\n    - c\n');
  });

  it('adds to a flow list in place', () => {
    const text = 'command_allowlist: [a, b]  # keep\nmodel: x\n';
    expect(addToCommandAllowlist(text, ['c'])).toBe('command_allowlist: [a, b, c]  # keep\nmodel: x\n');
    expect(addToCommandAllowlist('command_allowlist: []\n', ['c'])).toBe('command_allowlist: [c]\n');
  });

  it('skips keys already present and returns the text unchanged when nothing is new', () => {
    const text = 'command_allowlist:\n  - a   # note\n';
    expect(addToCommandAllowlist(text, ['a'])).toBe(text);
    expect(addToCommandAllowlist(text, [])).toBe(text);
    expect(addToCommandAllowlist(text, ['', 'a'])).toBe(text);
  });

  it('converts the legacy stringified list to a real list, keeping its entries and comment', () => {
    const text = `model: x\ncommand_allowlist: "['a', 'b']"  # legacy\nterminal: {timeout: 60}\n`;
    const out = addToCommandAllowlist(text, ['b', 'c']);
    expect(out).toBe('model: x\ncommand_allowlist: [a, b, c]  # legacy\nterminal: {timeout: 60}\n');
    expect(parse(out).command_allowlist).toEqual(['a', 'b', 'c']);
  });

  it('fills an empty value', () => {
    expect(addToCommandAllowlist('command_allowlist:\nmodel: x\n', ['a'])).toBe('command_allowlist: [a]\nmodel: x\n');
    expect(parse(addToCommandAllowlist('command_allowlist:   # none yet\nmodel: x\n', ['a']))).toEqual({ command_allowlist: ['a'], model: 'x' });
  });

  it('makes a document with just the list from an empty or missing file', () => {
    expect(addToCommandAllowlist(null, ['a', 'b'])).toBe('command_allowlist:\n  - a\n  - b\n');
    expect(addToCommandAllowlist('', ['a'])).toBe('command_allowlist:\n  - a\n');
    expect(addToCommandAllowlist('\n', [])).toBe('command_allowlist: []\n');
    expect(addToCommandAllowlist('# nothing yet\n', ['a'])).toBe('# nothing yet\ncommand_allowlist:\n  - a\n');
  });

  it('quotes keys a YAML 1.1 reader would take for booleans', () => {
    const out = addToCommandAllowlist('command_allowlist:\n  - a\n', ['on', 'yes']);
    expect(out).toBe('command_allowlist:\n  - a\n  - "on"\n  - "yes"\n');
  });

  it('keeps Windows line endings', () => {
    expect(addToCommandAllowlist('model: x\r\ncommand_allowlist:\r\n  - a\r\n', ['b'])).toBe('model: x\r\ncommand_allowlist:\r\n  - a\r\n  - b\r\n');
  });

  it('falls back to the yaml printer where a text splice would not parse, keeping data and comments', () => {
    expect(addToCommandAllowlist('{model: x} # flow map\n', ['b'])).toBe('{model: x, command_allowlist: [b]} # flow map\n');
    expect(addToCommandAllowlist('x: 1\n...\n', ['b'])).toBe('x: 1\ncommand_allowlist:\n  - b\n...\n');
    expect(addToCommandAllowlist('command_allowlist: >\n  a, b\nx: 1  # one\n', ['c'])).toBe('command_allowlist:\n  - a\n  - b\n  - c\nx: 1 # one\n');
  });

  it("rewrites keys earlier versions wrote as Hermes' keys on the next write, keeping the layout", () => {
    const text = `model: x  # main
command_allowlist:
  - shell_c   # old key, from the web UI
  - git push --force origin main
  - recursive_delete
# after
terminal: {timeout: 60}
`;
    const out = addToCommandAllowlist(text, ['SQL DROP']);
    expect(out).toBe(`model: x  # main
command_allowlist:
  - shell command via -c/-lc flag   # old key, from the web UI
  - git push --force origin main
  - recursive delete
  - recursive delete (long flag)
  - recursive delete (flags after operands)
  - SQL DROP
# after
terminal: {timeout: 60}
`);
    // A key already present drops the legacy line; nothing new still rewrites the old keys.
    expect(addToCommandAllowlist('command_allowlist:\n  - force kill processes\n  - force_kill\n', ['force kill processes'])).toBe(
      'command_allowlist:\n  - force kill processes\n  - force kill processes (killall -KILL)\n  - force kill processes (killall -s KILL)\n',
    );
    expect(addToCommandAllowlist('command_allowlist:\n  - mkfs\n  - format filesystem\n', [])).toBe('command_allowlist:\n  - format filesystem\n');
    expect(addToCommandAllowlist('command_allowlist: [dd, x]  # flow\n', ['z'])).toBe('command_allowlist: [disk copy, x, z]  # flow\n');
    expect(parse(addToCommandAllowlist(`command_allowlist: "['python_c', 'sql_drop']"\n`, ['z'])).command_allowlist).toEqual([
      'script execution via -e/-c flag',
      'SQL DROP',
      'z',
    ]);
    expect(addToCommandAllowlist('command_allowlist:\r\n  - dd\r\n', [])).toBe('command_allowlist:\r\n  - disk copy\r\n');
  });

  it('throws on invalid YAML and on files that are not a mapping, instead of writing them', () => {
    expect(() => addToCommandAllowlist('model: [unclosed\n', ['a'])).toThrow(/config\.yaml is not valid YAML/);
    expect(() => addToCommandAllowlist('a: 1\n---\nb: 2\n', ['a'])).toThrow(/not valid YAML/);
    expect(() => addToCommandAllowlist('- a\n- b\n', ['a'])).toThrow(/not hold a mapping/);
    expect(() => addToCommandAllowlist('command_allowlist: {a: 1}\n', ['a'])).toThrow(/neither a list nor a string/);
  });
});
