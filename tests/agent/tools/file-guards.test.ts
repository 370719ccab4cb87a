import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hermesDirs, parseWriteSafeRoots, readBlockError, writeBlockError } from '../../../src/agent/tools/file-guards.js';
import { patchTool, readFileTool, searchFilesTool, writeFileTool } from '../../../src/agent/tools/index.js';
import { fakeContext, parse, type Sandbox, sandbox } from './helpers.js';

const roots = { homeDir: '/home/u', hermesHome: '/home/u/.hermes' };
const profileRoots = { homeDir: '/home/u', hermesHome: '/home/u/.hermes/profiles/work' };
const SUFFIX = ' (Defense-in-depth — not a security boundary; the terminal tool can still bypass.)';

describe('read denylist (Hermes get_read_block_error)', () => {
  const denied: Array<[string, string, typeof roots?]> = [
    ['/home/u/.hermes/.env', 'is a Hermes credential store'],
    ['/home/u/.hermes/auth.json', 'is a Hermes credential store'],
    ['/home/u/.hermes/auth.lock', 'is a Hermes credential store'],
    ['/home/u/.hermes/.anthropic_oauth.json', 'is a Hermes credential store'],
    ['/home/u/.hermes/webhook_subscriptions.json', 'is a Hermes credential store'],
    ['/home/u/.hermes/auth/google_oauth.json', 'is a Hermes credential store'],
    ['/home/u/.hermes/cache/bws_cache.json', 'is a Hermes credential store'],
    ['/home/u/.hermes/mcp-tokens', 'is the Hermes MCP token directory'],
    ['/home/u/.hermes/mcp-tokens/github.json', 'is a Hermes MCP token file'],
    ['/home/u/.hermes/browser-profile/Cookies', 'is inside the Hermes real-profile browser snapshot'],
    ['/home/u/.hermes/vault/vault.key', 'is inside the Hermes credential vault'],
    ['/home/u/.hermes/skills/.hub/index-cache/x.json', 'is an internal Hermes cache file'],
    ['/srv/app/.env', 'is a secret-bearing environment file'],
    ['/srv/app/.ENV.Production', 'is a secret-bearing environment file'],
    ['/srv/app/.envrc', 'is a secret-bearing environment file'],
    // A profile is active: its own stores and the root's stay guarded.
    ['/home/u/.hermes/profiles/work/auth.json', 'is a Hermes credential store', profileRoots],
    ['/home/u/.hermes/.env', 'is a Hermes credential store', profileRoots],
  ];
  it.each(denied)('refuses %s', (path, reason, r = roots) => {
    const error = readBlockError(path, path, r);
    expect(error).toMatch(new RegExp(`^Access denied: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ${reason}`));
  });

  it('uses Hermes wording exactly', () => {
    expect(readBlockError('.env', '/srv/app/.env', roots)).toBe(
      'Access denied: /srv/app/.env is a secret-bearing environment file and cannot be read to prevent credential leakage. ' +
        `If you need to check the file structure, read .env.example instead.${SUFFIX}`,
    );
    expect(readBlockError('/dev/zero', '/dev/zero', roots)).toBe("Cannot read '/dev/zero': this is a device file that would block or produce infinite output.");
    expect(readBlockError('/proc/self/environ', '/proc/self/environ', roots)).toMatch(/device file/);
    expect(readBlockError('\\??\\UNC\\evil\\share', '/ws/x', roots)).toMatch(/^Read denied: .* uses a Windows NT\/device namespace prefix/);
  });

  const allowed = [
    '/srv/app/.env.example',
    '/srv/app/env.ts',
    '/home/u/.hermes/config.yaml',
    '/home/u/.hermes/memories/MEMORY.md',
    '/home/u/.hermes/SOUL.md',
    '/home/u/.hermes/skills/web/SKILL.md',
    '/srv/app/auth.json',
    '/proc/cpuinfo',
  ];
  it.each(allowed)('allows %s', (path) => {
    expect(readBlockError(path, path, roots)).toBeNull();
  });

  it('judges the real path too (a symlink cannot walk around the list)', () => {
    expect(readBlockError('notes.txt', '/ws/notes.txt', roots, '/home/u/.hermes/auth.json')).toBe(
      `Access denied: /ws/notes.txt is a Hermes credential store and cannot be read directly. Provider tools consume these credentials through internal channels.${SUFFIX}`,
    );
  });
});

describe('write denylist (Hermes sensitive paths + get_write_denied_error)', () => {
  const credential = [
    '/home/u/.ssh/authorized_keys',
    '/home/u/.ssh/config',
    '/home/u/.ssh/known_hosts',
    '/home/u/.aws/credentials',
    '/home/u/.gnupg/pubring.kbx',
    '/home/u/.kube/config',
    '/home/u/.docker/config.json',
    '/home/u/.azure/token',
    '/home/u/.config/gh/hosts.yml',
    '/home/u/.config/gcloud/credentials.db',
    '/home/u/.netrc',
    '/home/u/.pgpass',
    '/home/u/.npmrc',
    '/home/u/.pypirc',
    '/home/u/.git-credentials',
    '/home/u/.hermes/.env',
    '/home/u/.hermes/.anthropic_oauth.json',
    '/home/u/.hermes/cache/bws_cache.enc.json',
    '/home/u/.hermes/state.db',
    '/home/u/.hermes/sessions',
    '/home/u/.hermes/sessions/20260101_abc.json',
    '/home/u/.hermes/mcp-tokens/x',
    '/home/u/.hermes/pairing/telegram.json',
    '/home/u/.hermes/vault/vault.json.enc',
    '/home/u/.hermes/browser-profile/Login Data',
  ];
  it.each(credential)('refuses %s as a protected file', (path) => {
    expect(writeBlockError(path, path, roots)).toBe(`Write denied: '${path}' is a protected system/credential file.`);
  });

  it.each(['/etc/hosts', '/etc/sudoers', '/etc/systemd/system/x.service', '/boot/grub/grub.cfg', '/usr/lib/systemd/system/x', '/run/docker.sock'])(
    'refuses the system path %s',
    (path) => {
      expect(writeBlockError(path, path, roots)).toBe(
        `Refusing to write to sensitive system path: ${path}\nUse the terminal tool with sudo if you need to modify system files.`,
      );
    },
  );

  it("refuses the active profile's config.yaml, naming the argument as given", () => {
    expect(writeBlockError('~/.hermes/config.yaml', '/home/u/.hermes/config.yaml', roots)).toBe(
      'Refusing to write to Hermes config file: ~/.hermes/config.yaml\n' +
        "Agent cannot modify security-sensitive configuration. Edit ~/.hermes/config.yaml directly or use 'hermes config' instead.",
    );
    const profileConfig = '/home/u/.hermes/profiles/work/config.yaml';
    expect(writeBlockError(profileConfig, profileConfig, profileRoots)).toMatch(/^Refusing to write to Hermes config file/);
    // Under a profile the root's state stays protected as well.
    expect(writeBlockError('x', '/home/u/.hermes/state.db', profileRoots)).toMatch(/^Write denied/);
  });

  it('refuses a config.yaml that HERMES_CONFIG_PATH moved out of the home, by its path or a symlink to it', () => {
    const moved = { ...roots, configPath: '/srv/hermes/config.yaml' };
    expect(writeBlockError('/srv/hermes/config.yaml', '/srv/hermes/config.yaml', moved)).toMatch(/^Refusing to write to Hermes config file/);
    expect(writeBlockError('link.yaml', '/work/link.yaml', moved, '/srv/hermes/config.yaml')).toMatch(/^Refusing to write to Hermes config file/);
    expect(writeBlockError('/srv/hermes/other.yaml', '/srv/hermes/other.yaml', moved)).toBeNull();
  });

  const allowed = [
    '/srv/app/.env',
    '/srv/app/src/main.ts',
    '/home/u/.hermes/auth.json',
    '/home/u/.hermes/memories/MEMORY.md',
    '/home/u/.hermes/skills/x/SKILL.md',
    '/home/u/.sshx/y',
    '/home/u/.ssh',
    '/etcetera/x',
    '/var/tmp/x',
  ];
  it.each(allowed)('allows %s', (path) => {
    expect(writeBlockError(path, path, roots)).toBeNull();
  });

  it('holds writes under HERMES_WRITE_SAFE_ROOT when it is set', () => {
    const safe = { ...roots, writeSafeRoots: parseWriteSafeRoots('/srv/app:~/notes', '/home/u') };
    expect(safe.writeSafeRoots).toEqual(['/srv/app', '/home/u/notes']);
    expect(writeBlockError('a', '/srv/app/a', safe)).toBeNull();
    expect(writeBlockError('b', '/home/u/notes/b', safe)).toBeNull();
    expect(writeBlockError('c', '/srv/other/c', safe)).toBe(
      "Write denied: '/srv/other/c' is outside HERMES_WRITE_SAFE_ROOT (/home/u/notes:/srv/app). Unset the variable or add this path's directory prefix.",
    );
  });

  it('finds the Hermes root of a profile', () => {
    expect(hermesDirs('/home/u/.hermes')).toEqual(['/home/u/.hermes']);
    expect(hermesDirs('/home/u/.hermes/profiles/work/')).toEqual(['/home/u/.hermes/profiles/work', '/home/u/.hermes']);
  });
});

describe('the file tools apply the lists on the final path', () => {
  let box: Sandbox;
  beforeEach(() => {
    box = sandbox();
  });
  afterEach(() => box.cleanup());

  it('read_file refuses Hermes credential stores and project .env files, reads .env.example', async () => {
    writeFileSync(join(box.hermesHome, '.env'), 'OPENAI_API_KEY=sk-secret\n');
    writeFileSync(join(box.hermesHome, 'auth.json'), '{"token":"t"}');
    writeFileSync(join(box.workspace, '.env'), 'DB_PASSWORD=hunter2\n');
    writeFileSync(join(box.workspace, '.env.example'), 'DB_PASSWORD=\n');
    const { ctx } = fakeContext(box);
    for (const path of ['~/.hermes/.env', join(box.hermesHome, 'auth.json'), '.env']) {
      const out = await readFileTool.run({ path }, ctx);
      expect(out).not.toMatch(/sk-secret|hunter2|"t"/);
      expect(parse(out).error, path).toMatch(/^Access denied: /);
    }
    expect(await readFileTool.run({ path: '.env.example' }, ctx)).toContain('DB_PASSWORD=');
  });

  it('read_file refuses the server process environment under /proc', async () => {
    const { ctx } = fakeContext(box);
    expect(parse(await readFileTool.run({ path: '/proc/self/environ' }, ctx)).error).toBe(
      "Cannot read '/proc/self/environ': this is a device file that would block or produce infinite output.",
    );
  });

  it('follows symlinks: a workspace link to a credential store is refused for reading and writing', async () => {
    writeFileSync(join(box.hermesHome, 'auth.json'), '{"token":"t"}');
    mkdirSync(join(box.hermesHome, 'sessions'));
    symlinkSync(join(box.hermesHome, 'auth.json'), join(box.workspace, 'innocent.json'));
    symlinkSync(join(box.hermesHome, 'sessions'), join(box.workspace, 'history'));
    const { ctx } = fakeContext(box);
    expect(parse(await readFileTool.run({ path: 'innocent.json' }, ctx)).error).toMatch(/is a Hermes credential store/);
    // A new file below a linked directory is judged where it would land.
    expect(parse(await writeFileTool.run({ path: 'history/forged.json', content: '{}' }, ctx)).error).toMatch(/^Write denied: /);
    expect(existsSync(join(box.hermesHome, 'sessions', 'forged.json'))).toBe(false);
  });

  it('patch refuses protected targets before reading them and leaves them unchanged', async () => {
    const cfg = join(box.hermesHome, 'config.yaml');
    writeFileSync(cfg, 'approvals:\n  mode: manual\n');
    const { ctx } = fakeContext(box);
    const r = parse(await patchTool.run({ path: cfg, old_string: 'manual', new_string: 'off' }, ctx));
    expect(r.error).toMatch(/^Refusing to write to Hermes config file: /);
    expect(readFileSync(cfg, 'utf8')).toBe('approvals:\n  mode: manual\n');
  });

  it('write_file honours HERMES_WRITE_SAFE_ROOT from the context', async () => {
    const { ctx } = fakeContext(box);
    ctx.writeSafeRoots = [join(box.workspace, 'out')];
    expect(parse(await writeFileTool.run({ path: 'out/a.txt', content: 'a' }, ctx)).success).toBe(true);
    expect(parse(await writeFileTool.run({ path: 'b.txt', content: 'b' }, ctx)).error).toMatch(/is outside HERMES_WRITE_SAFE_ROOT/);
    expect(existsSync(join(box.workspace, 'b.txt'))).toBe(false);
  });

  it('search_files refuses a denied root and drops denied files from results, saying how many', async () => {
    writeFileSync(join(box.workspace, '.env'), 'TOKEN=abc123\n');
    writeFileSync(join(box.workspace, 'app.ts'), 'const TOKEN = process.env.TOKEN;\n');
    mkdirSync(join(box.hermesHome, 'mcp-tokens'));
    const { ctx } = fakeContext(box, { hostOptions: { useRipgrep: false } });
    const hidden = { pattern: 'TOKEN', path: '.', target: 'content' };
    // The JS engine skips dotfiles; an explicit file path reaches it and is refused instead.
    expect(parse(await searchFilesTool.run({ ...hidden, path: '.env' }, ctx)).error).toMatch(/secret-bearing environment file/);
    expect(parse(await searchFilesTool.run({ pattern: '*', path: join(box.hermesHome, 'mcp-tokens') }, ctx)).error).toMatch(/MCP token directory/);
    const r = parse(await searchFilesTool.run(hidden, ctx));
    expect(r.matches).toEqual(['app.ts:1:const TOKEN = process.env.TOKEN;']);
    expect(r._omitted).toBeUndefined();

    // A search over the Hermes home finds the credential store too: it is left out and counted.
    writeFileSync(join(box.hermesHome, 'auth.json'), '{"token": "secret-oauth"}\n');
    mkdirSync(join(box.hermesHome, 'memories'));
    writeFileSync(join(box.hermesHome, 'memories', 'MEMORY.md'), 'rotate the token monthly\n');
    for (const output_mode of ['content', 'files_only', 'count']) {
      const out = await searchFilesTool.run({ pattern: 'token', path: box.hermesHome, output_mode }, ctx);
      expect(out, output_mode).not.toContain('secret-oauth');
      const res = parse(out);
      expect(res.matches, output_mode).toHaveLength(1);
      expect(res.matches[0], output_mode).toContain('MEMORY.md');
      expect(res._omitted, output_mode).toBe('1 result(s) omitted because they target credential, token, cache, or secret-bearing environment files.');
    }
  });
});
