import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { patchTool } from '../../../src/agent/tools/patch.js';
import { readFileTool } from '../../../src/agent/tools/read-file.js';
import { writeFileTool } from '../../../src/agent/tools/write-file.js';
import { fakeContext, parse, sandbox, type Sandbox } from './helpers.js';

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('read_file', () => {
  it('numbers lines and pages with offset/limit, telling where the next page starts', async () => {
    writeFileSync(join(box.workspace, 'big.txt'), lines(10));
    const { ctx } = fakeContext(box);
    const out = await readFileTool.run({ path: 'big.txt', offset: 3, limit: 4 }, ctx);
    expect(out).toBe(['     3|line 3', '     4|line 4', '     5|line 5', '     6|line 6', '... (4 more lines; use offset=7)'].join('\n'));
    const rest = await readFileTool.run({ path: 'big.txt', offset: '7' }, ctx);
    expect(rest.split('\n')).toEqual(['     7|line 7', '     8|line 8', '     9|line 9', '    10|line 10']);
  });

  it('reads 500 lines by default and caps limit at 2000', async () => {
    writeFileSync(join(box.workspace, 'huge.txt'), lines(2500));
    const { ctx } = fakeContext(box);
    const def = (await readFileTool.run({ path: 'huge.txt' }, ctx)).split('\n');
    expect(def).toHaveLength(501);
    expect(def[499]).toBe('   500|line 500');
    expect(def[500]).toBe('... (2000 more lines; use offset=501)');
    const max = (await readFileTool.run({ path: 'huge.txt', limit: 9999 }, ctx)).split('\n');
    expect(max).toHaveLength(2001);
    expect(max[2000]).toBe('... (500 more lines; use offset=2001)');
  });

  it('resolves ~ against the home directory and absolute paths as given', async () => {
    writeFileSync(join(box.home, 'notes.md'), 'from home\n');
    const { ctx } = fakeContext(box);
    expect(await readFileTool.run({ path: '~/notes.md' }, ctx)).toBe('     1|from home');
    expect(await readFileTool.run({ path: join(box.home, 'notes.md') }, ctx)).toBe('     1|from home');
  });

  it('returns errors as JSON: not found, directory, binary, offset past the end', async () => {
    const { ctx } = fakeContext(box);
    expect(parse(await readFileTool.run({ path: 'missing.txt' }, ctx)).error).toBe(`File not found: ${join(box.workspace, 'missing.txt')}`);
    mkdirSync(join(box.workspace, 'dir'));
    expect(parse(await readFileTool.run({ path: 'dir' }, ctx)).error).toMatch(/is a directory/);
    writeFileSync(join(box.workspace, 'img.bin'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]));
    expect(parse(await readFileTool.run({ path: 'img.bin' }, ctx)).error).toMatch(/binary file/);
    writeFileSync(join(box.workspace, 'short.txt'), 'a\nb\n');
    expect(parse(await readFileTool.run({ path: 'short.txt', offset: 5 }, ctx)).error).toBe('offset 5 is past the end of the file (2 lines)');
    expect(parse(await readFileTool.run({}, ctx)).error).toBe('path is required');
  });
});

describe('write_file', () => {
  it('creates parent directories and reports bytes written (UTF-8)', async () => {
    const { ctx } = fakeContext(box);
    const r = parse(await writeFileTool.run({ path: 'a/b/c.txt', content: 'héllo\n' }, ctx));
    const abs = join(box.workspace, 'a/b/c.txt');
    expect(r).toEqual({ success: true, path: abs, bytes_written: 7 });
    expect(readFileSync(abs, 'utf8')).toBe('héllo\n');
    // Overwrites completely.
    await writeFileTool.run({ path: 'a/b/c.txt', content: 'x' }, ctx);
    expect(readFileSync(abs, 'utf8')).toBe('x');
  });

  it("refuses credential files, system paths and Hermes state with Hermes' messages, and writes nothing", async () => {
    const { ctx } = fakeContext(box);
    const denied = [
      '~/.ssh/authorized_keys',
      '~/.aws/credentials',
      '~/.netrc',
      join(box.hermesHome, '.env'),
      join(box.hermesHome, 'state.db'),
      join(box.hermesHome, 'sessions/x.json'),
    ];
    for (const path of denied) {
      const r = parse(await writeFileTool.run({ path, content: 'pwned' }, ctx));
      expect(r.error, path).toMatch(/^Write denied: '.+' is a protected system\/credential file\.$/);
    }
    expect(parse(await writeFileTool.run({ path: '/etc/sudoers', content: 'x' }, ctx)).error).toBe(
      'Refusing to write to sensitive system path: /etc/sudoers\nUse the terminal tool with sudo if you need to modify system files.',
    );
    expect(parse(await writeFileTool.run({ path: join(box.hermesHome, 'config.yaml'), content: 'x' }, ctx)).error).toMatch(
      /^Refusing to write to Hermes config file: /,
    );
    expect(existsSync(join(box.home, '.ssh'))).toBe(false);
    expect(existsSync(join(box.hermesHome, '.env'))).toBe(false);
    expect(existsSync(join(box.hermesHome, 'sessions'))).toBe(false);
    expect(existsSync(join(box.hermesHome, 'config.yaml'))).toBe(false);
  });

  it('requires path and string content', async () => {
    const { ctx } = fakeContext(box);
    expect(parse(await writeFileTool.run({ content: 'x' }, ctx)).error).toMatch(/path/);
    expect(parse(await writeFileTool.run({ path: 'x.txt' }, ctx)).error).toMatch(/content/);
    expect(existsSync(join(box.workspace, 'x.txt'))).toBe(false);
  });
});

describe('patch', () => {
  const file = () => join(box.workspace, 'src.py');
  const code = 'def greet(name):\n    msg = "hi " + name\n    return msg\n\ndef bye():\n    return "bye"\n';

  it('replaces an exact unique match and returns a unified diff', async () => {
    writeFileSync(file(), code);
    const { ctx } = fakeContext(box);
    const r = parse(await patchTool.run({ path: 'src.py', old_string: '"hi "', new_string: '"hello "' }, ctx));
    expect(r).toMatchObject({ success: true, path: file(), replacements: 1, match: 'exact' });
    expect(readFileSync(file(), 'utf8')).toBe(code.replace('"hi "', '"hello "'));
    expect(r.diff).toContain('--- a/src.py');
    expect(r.diff).toContain('+++ b/src.py');
    expect(r.diff).toContain('-    msg = "hi " + name');
    expect(r.diff).toContain('+    msg = "hello " + name');
    expect(r.diff).toMatch(/@@ -1,\d+ \+1,\d+ @@/);
  });

  it('tolerates indentation differences and re-indents new_string to the file', async () => {
    writeFileSync(file(), code);
    const { ctx } = fakeContext(box);
    const r = parse(
      await patchTool.run(
        { mode: 'replace', path: 'src.py', old_string: 'msg = "hi " + name\nreturn msg\n', new_string: 'msg = f"hi {name}"\nreturn msg.strip()\n' },
        ctx,
      ),
    );
    expect(r).toMatchObject({ success: true, replacements: 1, match: 'indentation' });
    expect(readFileSync(file(), 'utf8')).toBe('def greet(name):\n    msg = f"hi {name}"\n    return msg.strip()\n\ndef bye():\n    return "bye"\n');
  });

  it('tolerates trailing whitespace differences', async () => {
    writeFileSync(file(), 'a = 1   \nb = 2\t\nc = 3\n');
    const { ctx } = fakeContext(box);
    const r = parse(await patchTool.run({ path: 'src.py', old_string: 'a = 1\nb = 2', new_string: 'a = 10\nb = 20' }, ctx));
    expect(r).toMatchObject({ success: true, match: 'trailing-whitespace' });
    expect(readFileSync(file(), 'utf8')).toBe('a = 10\nb = 20\nc = 3\n');
  });

  it('keeps CRLF line endings when matching tolerantly', async () => {
    writeFileSync(file(), 'one\r\ntwo\r\nthree\r\n');
    const { ctx } = fakeContext(box);
    const r = parse(await patchTool.run({ path: 'src.py', old_string: 'one\ntwo', new_string: 'uno\ndos' }, ctx));
    expect(r.success).toBe(true);
    expect(readFileSync(file(), 'utf8')).toBe('uno\r\ndos\r\nthree\r\n');
  });

  it('refuses an ambiguous match unless replace_all, then replaces every one', async () => {
    writeFileSync(file(), 'x = 1\ny = 1\nz = 1\n');
    const { ctx } = fakeContext(box);
    const amb = parse(await patchTool.run({ path: 'src.py', old_string: '= 1', new_string: '= 2' }, ctx));
    expect(amb.error).toMatch(/matches 3 times.*more surrounding context/);
    expect(readFileSync(file(), 'utf8')).toBe('x = 1\ny = 1\nz = 1\n');
    const all = parse(await patchTool.run({ path: 'src.py', old_string: '= 1', new_string: '= 2', replace_all: true }, ctx));
    expect(all).toMatchObject({ success: true, replacements: 3 });
    expect(readFileSync(file(), 'utf8')).toBe('x = 2\ny = 2\nz = 2\n');
  });

  it('reports a string that is not there, even with whitespace tolerance, and leaves the file alone', async () => {
    writeFileSync(file(), code);
    const { ctx } = fakeContext(box);
    const r = parse(await patchTool.run({ path: 'src.py', old_string: 'return "ciao"', new_string: 'x' }, ctx));
    expect(r.error).toMatch(/Could not find old_string.*trailing whitespace and indentation/);
    expect(readFileSync(file(), 'utf8')).toBe(code);
  });

  it('deletes with an empty new_string', async () => {
    writeFileSync(file(), 'keep\ndrop me\nkeep too\n');
    const { ctx } = fakeContext(box);
    const r = parse(await patchTool.run({ path: 'src.py', old_string: 'drop me\n', new_string: '' }, ctx));
    expect(r.success).toBe(true);
    expect(readFileSync(file(), 'utf8')).toBe('keep\nkeep too\n');
  });

  it('rejects V4A patch mode, bad arguments, missing files and credential files', async () => {
    writeFileSync(file(), code);
    const { ctx } = fakeContext(box);
    expect(parse(await patchTool.run({ mode: 'patch', patch: '*** Begin Patch\n*** End Patch' }, ctx)).error).toMatch(/Only mode='replace' is supported/);
    expect(parse(await patchTool.run({ path: 'src.py', old_string: 'a', new_string: 'a' }, ctx)).error).toMatch(/identical/);
    expect(parse(await patchTool.run({ path: 'src.py', old_string: '', new_string: 'a' }, ctx)).error).toMatch(/old_string is required/);
    expect(parse(await patchTool.run({ path: 'nope.py', old_string: 'a', new_string: 'b' }, ctx)).error).toMatch(/File not found/);
    writeFileSync(join(box.workspace, '.env'), 'KEY=1\n');
    expect(parse(await patchTool.run({ path: '.env', old_string: 'KEY=1', new_string: 'KEY=2' }, ctx)).error).toMatch(
      /^Access denied: .+ is a secret-bearing environment file/,
    );
    expect(readFileSync(join(box.workspace, '.env'), 'utf8')).toBe('KEY=1\n');
  });
});
