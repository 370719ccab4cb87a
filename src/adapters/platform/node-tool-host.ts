import { spawn } from 'node:child_process';
import { constants, existsSync } from 'node:fs';
import { access, mkdir, open, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { OutputWindow } from '../../agent/tools/output-window.js';
import { DRAIN_MS, KILL_GRACE_MS, spawnBackground } from './node-background.js';
import { ContentPager, contentRegExp, globMatches, globToRegExp } from '../../agent/tools/search-format.js';
import type { ExecRequest, ExecResult, SearchRequest, SearchResult, SpawnedProcess, SpawnRequest, ToolHost } from '../../agent/tools/types.js';
import { readBytes, removePath, walkFiles } from './node-file-walk.js';
import { realPathOf } from './node-real-path.js';

export interface NodeToolHostOptions {
  /** false forces the JavaScript search; true/undefined use `rg` when it is on PATH. */
  useRipgrep?: boolean;
  /** Base for `~` (tests point it at a temp dir). Default: the user's home. */
  homeDir?: string;
  /** Environment for commands. Default: this process's, minus provider keys. */
  env?: Record<string, string>;
}

/** Provider keys stay with the agent: a command (or the model through one) has no use for them. */
const PROVIDER_PREFIXES =
  /^(ANTHROPIC|OPENAI|OPENROUTER|NOUS|HF|HUGGINGFACE|GROQ|MISTRAL|GEMINI|GOOGLE|XAI|DEEPSEEK|TOGETHER|FIREWORKS|CEREBRAS|COHERE|PERPLEXITY|AZURE_OPENAI|KIMI|MOONSHOT|ZAI|GLM|MINIMAX|DASHSCOPE|QWEN|EXA|TAVILY|FIRECRAWL|PARALLEL|FAL|ELEVENLABS)_/;
export function commandEnv(source: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) {
    if (v === undefined) continue;
    if (/_API_KEY$/i.test(k) || (PROVIDER_PREFIXES.test(k) && /_(TOKEN|KEY|SECRET)$/i.test(k))) continue;
    env[k] = v;
  }
  env.HERMES_WEBUI = '1';
  return env;
}

/** Reports the shell's directory on fd 3 when it exits, so the next command can start there. */
const CWD_TRAP = `trap 'printf "%s" "$PWD" >&3 2>/dev/null' EXIT`;
const MAX_JS_FILES = 20_000;
const MAX_JS_FILE_BYTES = 10 * 1024 * 1024;
/** A content search stops counting past this many matches (the total is then a lower bound). */
const MAX_COUNTED_MATCHES = 100_000;
const SKIP_DIRS = new Set(['node_modules']);

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal); // the whole group: the shell and whatever it started
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function onPath(name: string): Promise<string | null> {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && (await isExecutable(join(dir, name)))) return join(dir, name);
  }
  return null;
}

export class NodeToolHost implements ToolHost {
  readonly homeDir: string;
  readonly readBytes = readBytes;
  readonly walkFiles = walkFiles;
  readonly remove = removePath;
  private readonly env: Record<string, string>;
  private readonly shell = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
  private rg: Promise<string | null>;

  constructor(options: NodeToolHostOptions = {}) {
    this.homeDir = options.homeDir ?? homedir();
    this.env = options.env ? { ...options.env, HERMES_WEBUI: '1' } : commandEnv(process.env);
    this.rg = options.useRipgrep === false ? Promise.resolve(null) : onPath('rg');
  }

  /** Which engine `search` will use. */
  async searchEngine(): Promise<'rg' | 'js'> {
    return (await this.rg) ? 'rg' : 'js';
  }

  exec(req: ExecRequest): Promise<ExecResult> {
    if (req.signal.aborted) return Promise.resolve({ output: '', exitCode: null, timedOut: false, truncated: false });
    return new Promise((resolve, reject) => {
      const out = new OutputWindow(req.maxOutputChars);
      // With trackCwd the shell reports where it ended on fd 3 as it exits (an `exit` included).
      const script = req.trackCwd ? `${CWD_TRAP}\n${req.command}` : req.command;
      const stdio: Array<'ignore' | 'pipe'> = req.trackCwd ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'];
      // Its own process group (detached), so a timeout or a stop can kill everything it started.
      const child = spawn(this.shell, ['-c', script], { cwd: req.cwd, env: this.env, detached: true, stdio });
      const decoders = [new TextDecoder(), new TextDecoder()];
      child.stdout!.on('data', (b: Uint8Array) => out.push(decoders[0]!.decode(b, { stream: true })));
      child.stderr!.on('data', (b: Uint8Array) => out.push(decoders[1]!.decode(b, { stream: true })));
      let cwd = '';
      const cwdPipe = req.trackCwd ? (child.stdio[3] as NodeJS.ReadableStream | null) : null;
      cwdPipe?.on('data', (b: Buffer) => {
        if (cwd.length < 8192) cwd += b.toString('utf8');
      });

      let timedOut = false;
      let killTimer: NodeJS.Timeout | undefined;
      const stop = () => {
        if (killTimer) return;
        killGroup(child.pid, 'SIGTERM');
        killTimer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
      };
      const timer = setTimeout(() => {
        timedOut = true;
        stop();
      }, req.timeoutMs);
      req.signal.addEventListener('abort', stop, { once: true });

      let settled = false;
      const finish = (exitCode: number | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // A pending SIGKILL still fires: children that ignored SIGTERM may outlive the shell.
        killTimer?.unref();
        req.signal.removeEventListener('abort', stop);
        for (const d of decoders) out.push(d.decode());
        // Children left running in the background must not keep the call open through the pipes.
        for (const s of child.stdio) (s as { destroy?: () => void } | null)?.destroy?.();
        const result: ExecResult = { output: out.text(), exitCode, timedOut, truncated: out.truncated };
        if (cwd.startsWith('/') && !killTimer) result.cwd = cwd;
        resolve(result);
      };
      child.on('error', (err) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.signal.removeEventListener('abort', stop);
        reject(err);
      });
      child.on('close', (code) => finish(code));
      child.on('exit', (code) => setTimeout(() => finish(code), DRAIN_MS));
    });
  }

  spawn(req: SpawnRequest): SpawnedProcess {
    return spawnBackground(this.shell, this.env, req);
  }

  async readText(path: string): Promise<string | null> {
    try {
      return await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async writeText(path: string, content: string): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content, 'utf8');
  }

  async stat(path: string): Promise<{ isFile: boolean; isDir: boolean; size: number } | null> {
    try {
      const s = await stat(path);
      return { isFile: s.isFile(), isDir: s.isDirectory(), size: s.size };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw err;
    }
  }

  realPath(path: string): Promise<string> {
    return realPathOf(path);
  }

  async search(req: SearchRequest): Promise<SearchResult> {
    const rg = await this.rg;
    return rg ? this.searchRg(rg, req) : this.searchJs(req);
  }

  // ---- ripgrep ----

  private async searchRg(rg: string, req: SearchRequest): Promise<SearchResult> {
    // rg matches globs that contain `/` against paths relative to its cwd, so it runs in the root.
    const isDir = (await stat(req.path)).isDirectory();
    const cwd = isDir ? req.path : dirname(req.path);
    const where = ['--', isDir ? '.' : basename(req.path)];
    const abs = (p: string) => join(cwd, p);
    const common = ['--no-messages', '--glob', '!node_modules', '--max-filesize', '10M'];
    if (req.target === 'files') {
      const r = await runLines(rg, ['--files', '--sortr', 'modified', ...common, '--glob', req.pattern, ...where], cwd, req.signal);
      return page(r.lines.map(abs), req, 'rg');
    }
    const glob = req.fileGlob ? ['--glob', req.fileGlob] : [];
    const attempt = async (fixed: boolean) => {
      const pat = [...(fixed ? ['--fixed-strings'] : []), '-e', req.pattern];
      if (req.outputMode === 'content') return this.rgContent(rg, [...common, ...glob, '--sort', 'path', ...pat, ...where], cwd, req);
      const flag = req.outputMode === 'count' ? '--count' : '--files-with-matches';
      const r = await runLines(rg, [flag, '--with-filename', '--sort', 'path', ...common, ...glob, ...pat, ...where], cwd, req.signal);
      if (r.code === 2 && r.lines.length === 0) throw new RgError(r.stderr);
      return page(r.lines.map(abs), req, 'rg');
    };
    try {
      return await attempt(false);
    } catch (err) {
      // Same rule as the JS engine: what is not a valid regex is searched literally.
      if (err instanceof RgError && /regex parse error|error parsing regex/i.test(err.message)) return attempt(true);
      throw err;
    }
  }

  private async rgContent(rg: string, args: string[], cwd: string, req: SearchRequest): Promise<SearchResult> {
    const pager = new ContentPager(req.offset, req.limit, req.context);
    const ctx = req.context > 0 ? ['--context', String(req.context)] : [];
    let file: { path: string; matches: number[]; lines: Map<number, string> } | null = null;
    const flush = () => {
      if (file) pager.addFile(file.path, file.matches, (n) => file?.lines.get(n));
      file = null;
    };
    let capped = false;
    const r = await runLines(rg, ['--json', ...ctx, ...args], cwd, req.signal, (line, stopEarly) => {
      const ev = JSON.parse(line) as RgEvent;
      const d = ev.data;
      if (ev.type === 'begin') {
        flush();
        file = { path: join(cwd, rgText(d.path)), matches: [], lines: new Map() };
      } else if ((ev.type === 'match' || ev.type === 'context') && file && d.line_number) {
        if (ev.type === 'match') file.matches.push(d.line_number);
        file.lines.set(d.line_number, rgText(d.lines).replace(/\r?\n$/, ''));
      } else if (ev.type === 'end') {
        flush();
        if (pager.total >= MAX_COUNTED_MATCHES) {
          capped = true;
          stopEarly();
        }
      }
    });
    if (r.code === 2 && pager.total === 0) throw new RgError(r.stderr);
    flush();
    return { matches: pager.page(), total: pager.total, truncated: capped || pager.total > req.offset + req.limit, engine: 'rg' };
  }

  // ---- JavaScript fallback ----

  private async searchJs(req: SearchRequest): Promise<SearchResult> {
    const root = await stat(req.path);
    const rel = (abs: string) => (root.isDirectory() ? relative(req.path, abs) : abs.slice(abs.lastIndexOf('/') + 1));
    const { files, capped } = root.isDirectory() ? await walk(req.path, req.signal) : { files: [req.path], capped: false };

    if (req.target === 'files') {
      const re = globToRegExp(req.pattern);
      const hits = files.filter((f) => globMatches(re, req.pattern, rel(f)));
      const dated = await Promise.all(hits.map(async (f) => ({ f, t: (await stat(f).catch(() => null))?.mtimeMs ?? 0 })));
      dated.sort((a, b) => b.t - a.t || a.f.localeCompare(b.f));
      return page(
        dated.map((d) => d.f),
        req,
        'js',
        capped,
      );
    }

    const re = contentRegExp(req.pattern);
    const globRe = req.fileGlob ? globToRegExp(req.fileGlob) : null;
    const pager = new ContentPager(req.offset, req.limit, req.context);
    const listed: string[] = [];
    for (const f of files.sort()) {
      if (req.signal.aborted) throw new Error('Search was interrupted');
      if (globRe && !globMatches(globRe, req.fileGlob as string, rel(f))) continue;
      const text = await readTextFile(f);
      if (text === null) continue;
      const lines = text.split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      const matches: number[] = [];
      lines.forEach((l, i) => {
        if (re.test(l.replace(/\r$/, ''))) matches.push(i + 1);
      });
      if (!matches.length) continue;
      if (req.outputMode === 'content') pager.addFile(f, matches, (n) => lines[n - 1]?.replace(/\r$/, ''));
      else listed.push(req.outputMode === 'count' ? `${f}:${matches.length}` : f);
      if (pager.total >= MAX_COUNTED_MATCHES) break;
    }
    if (req.outputMode !== 'content') return page(listed, req, 'js', capped);
    return { matches: pager.page(), total: pager.total, truncated: capped || pager.total > req.offset + req.limit, engine: 'js' };
  }
}

function page(all: string[], req: SearchRequest, engine: 'rg' | 'js', capped = false): SearchResult {
  const matches = all.slice(req.offset, req.offset + req.limit);
  return { matches, total: all.length, truncated: capped || all.length > req.offset + req.limit, engine };
}

/** Regular files under `root`, skipping hidden entries, node_modules and symlinks (as rg does). */
async function walk(root: string, signal: AbortSignal): Promise<{ files: string[]; capped: boolean }> {
  const files: string[] = [];
  const dirs = [root];
  while (dirs.length) {
    if (signal.aborted) throw new Error('Search was interrupted');
    const dir = dirs.pop() as string;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (e.name.startsWith('.') || SKIP_DIRS.has(e.name)) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) dirs.push(p);
      else if (e.isFile()) {
        files.push(p);
        if (files.length >= MAX_JS_FILES) return { files, capped: true };
      }
    }
  }
  return { files, capped: false };
}

/** A text file's content, or null for binary (NUL in the first 8 KB), huge or unreadable files. */
async function readTextFile(path: string): Promise<string | null> {
  try {
    const fh = await open(path, 'r');
    try {
      const { size } = await fh.stat();
      if (size > MAX_JS_FILE_BYTES) return null;
      const buf = await fh.readFile();
      if (buf.subarray(0, 8192).includes(0)) return null;
      return buf.toString('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    return null;
  }
}

class RgError extends Error {
  constructor(stderr: string) {
    super(stderr.trim() || 'ripgrep failed');
  }
}

interface RgData {
  text?: string;
  bytes?: string;
}
interface RgEvent {
  type: 'begin' | 'match' | 'context' | 'end' | 'summary';
  data: { path?: RgData; lines?: RgData; line_number?: number };
}

/** rg's JSON gives non-UTF-8 text as base64 bytes. */
function rgText(d: RgData | undefined): string {
  if (!d) return '';
  return d.text ?? Buffer.from(d.bytes ?? '', 'base64').toString('utf8');
}

/** Runs a program and hands over its stdout line by line (or collects the lines). */
function runLines(
  cmd: string,
  args: string[],
  cwd: string,
  signal: AbortSignal,
  onLine?: (line: string, stopEarly: () => void) => void,
): Promise<{ lines: string[]; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal });
    const lines: string[] = [];
    let stderr = '';
    let stopped = false;
    const stopEarly = () => {
      stopped = true;
      child.kill('SIGTERM');
    };
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      if (stderr.length < 4000) stderr += s;
    });
    const rl = createInterface({ input: child.stdout });
    rl.on('line', (line) => {
      if (stopped || !line) return;
      if (onLine) {
        try {
          onLine(line, stopEarly);
        } catch {
          /* a malformed line is skipped */
        }
      } else lines.push(line);
    });
    child.on('error', (err) => reject(signal.aborted ? new Error('Search was interrupted') : err));
    child.on('close', (code) => {
      if (signal.aborted) reject(new Error('Search was interrupted'));
      else resolve({ lines, code: stopped ? 0 : code, stderr });
    });
  });
}
