import { PREFILL_OUTPUT_LIMIT } from '../config.js';
import type { PrefillIo } from '../ports/prefill.js';
import { redactSecrets } from '../shared/redact.js';
import type { RunEventPayloads } from '../shared/run-events.js';
import type { ChatMessage } from './messages.js';

/**
 * Browser-turn prefill context, as the incumbent loads it: the script first
 * (`HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT`), the JSON file when no script is set or the script
 * failed, then the character budget (over it: the file if it fits, else one short note that
 * the context was left out). Nothing here ever fails a turn: a bad source is an `error` status.
 */
export type PrefillRole = 'system' | 'user' | 'assistant';
export interface PrefillMessage {
  role: PrefillRole;
  content: string;
}

export interface PrefillContext {
  status: 'not_configured' | 'loaded' | 'error';
  source: string;
  label: string;
  messages: PrefillMessage[];
  error?: string;
  compacted?: boolean;
  originalSource?: string;
  originalCharCount?: number;
  maxChars?: number;
}

/** One turn's sources and bounds (prefill-config.ts merges the environment and config.yaml into them). */
export interface PrefillSettings {
  file?: string;
  /** A command line (split as shlex does, no shell) or, from config.yaml, an argv list run as is. */
  script?: string | string[];
  scriptTimeoutMs: number;
  maxChars: number;
  /** Where relative file and single-word script paths resolve: the config.yaml's folder, as the incumbent does. */
  baseDir: string;
  /** What a leading `~` means (absent: left as written). */
  homeDir?: string;
}

const NOT_CONFIGURED: PrefillContext = { status: 'not_configured', source: 'none', label: '', messages: [] };

/** `{role, content}` items with a known role and non-blank text; everything else is skipped. */
export function validPrefillMessages(value: unknown): PrefillMessage[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const { role, content } = (item ?? {}) as { role?: unknown; content?: unknown };
    if ((role !== 'system' && role !== 'user' && role !== 'assistant') || typeof content !== 'string' || !content.trim()) return [];
    return [{ role, content }];
  });
}

/** JSON messages (a list, or `{messages: [...]}`), else the whole output as one user message. */
export function messagesFromScriptOutput(text: string): PrefillMessage[] {
  const stripped = text.trim();
  if (!stripped) return [];
  let payload: unknown = null;
  try {
    payload = JSON.parse(stripped);
  } catch {
    // plain text
  }
  if (payload && typeof payload === 'object' && !Array.isArray(payload)) payload = (payload as { messages?: unknown }).messages;
  const messages = validPrefillMessages(payload);
  return messages.length ? messages : [{ role: 'user', content: stripped }];
}

/** A command line split as POSIX shlex does (quotes, backslashes), with no shell behind it. */
export function splitCommand(line: string): string[] {
  const out: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    const next = line[i + 1];
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && next !== undefined && '"\\$`\n'.includes(next)) word += line[++i];
      else word += ch;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(word);
      word = '';
      inWord = false;
    } else {
      inWord = true;
      if (ch === "'" || ch === '"') quote = ch;
      else if (ch === '\\' && next !== undefined) word += line[++i];
      else word += ch;
    }
  }
  if (inWord) out.push(word);
  return out;
}

const SECRET_SHAPED = /(api[_-]?key|token|password|secret)\s*[:=]\s*\S+/gi;

/** A short, secret-free diagnostic (it reaches the log and the browser's status). */
function diagnostic(text: string): string {
  return redactSecrets(text.replace(SECRET_SHAPED, '[REDACTED]')).split(/\s+/).filter(Boolean).join(' ').slice(0, 240);
}

const baseName = (path: string) => path.split('/').filter(Boolean).at(-1) ?? path;
function resolvePath(path: string, settings: PrefillSettings): string {
  const home = settings.homeDir?.replace(/\/+$/, '');
  if (home && (path === '~' || path.startsWith('~/'))) return `${home}${path.slice(1)}`;
  return path.startsWith('/') ? path : `${settings.baseDir.replace(/\/+$/, '')}/${path}`;
}
const charCount = (messages: PrefillMessage[]) => messages.reduce((n, m) => n + m.content.length, 0);

async function loadFile(settings: PrefillSettings, io: PrefillIo, source: string): Promise<PrefillContext> {
  const path = resolvePath(settings.file!, settings);
  const label = baseName(path) || 'prefill file';
  try {
    const text = await io.readText(path);
    if (text === null) return { status: 'error', source, label, messages: [], error: 'prefill file not found' };
    return { status: 'loaded', source, label, messages: validPrefillMessages(JSON.parse(text)) };
  } catch (err) {
    return { status: 'error', source, label, messages: [], error: diagnostic(String((err as Error)?.message ?? err)) };
  }
}

async function loadScript(settings: PrefillSettings, io: PrefillIo): Promise<PrefillContext> {
  const script = settings.script!;
  const argv = Array.isArray(script) ? [...script] : splitCommand(script);
  // One word is a script path, resolved like the file; a longer command (or a list) is run as written.
  if (!Array.isArray(script) && argv.length === 1) argv[0] = resolvePath(argv[0]!, settings);
  const label = argv.length ? baseName(argv[0]!) : 'prefill script';
  if (!argv.length) return { status: 'error', source: 'script', label, messages: [], error: 'prefill script is empty' };
  const run = await io.runScript(argv, { timeoutMs: settings.scriptTimeoutMs, maxOutputBytes: PREFILL_OUTPUT_LIMIT });
  if (!run.ok) return { status: 'error', source: 'script', label, messages: [], error: diagnostic(run.error) };
  return { status: 'loaded', source: 'script', label, messages: messagesFromScriptOutput(run.stdout) };
}

async function withinBudget(context: PrefillContext, settings: PrefillSettings, io: PrefillIo): Promise<PrefillContext> {
  const max = settings.maxChars;
  const count = charCount(context.messages);
  if (context.status !== 'loaded' || max <= 0 || count <= max) return context;
  const over = { compacted: true, originalSource: context.source, originalCharCount: count, maxChars: max };
  // A script's output too large for the budget: the static file stands in when it fits.
  if (context.source === 'script' && settings.file) {
    const fallback = await loadFile(settings, io, 'file_budget_fallback');
    if (fallback.status === 'loaded' && charCount(fallback.messages) <= max) return { ...fallback, ...over };
  }
  const note =
    `A configured WebUI startup prefill source was available, but it exceeded the WebUI prefill context budget (${count} chars > ${max} chars), ` +
    'so its payload was omitted from this chat. If the request depends on prior decisions, notes, runbooks or open issues, ' +
    'use the available search or note tools to fetch only the relevant details before answering.';
  return { status: 'loaded', source: 'budget_compacted', label: context.label || 'prefill context', messages: [{ role: 'user', content: note }], ...over };
}

/** This turn's prefill context (read fresh for every turn, as the incumbent does). */
export async function loadPrefill(settings: PrefillSettings, io: PrefillIo): Promise<PrefillContext> {
  if (!settings.script) return settings.file ? withinBudget(await loadFile(settings, io, 'file'), settings, io) : NOT_CONFIGURED;
  const script = await loadScript(settings, io);
  if (script.status === 'error' && settings.file) {
    const file = await loadFile(settings, io, 'file_fallback');
    if (file.status === 'loaded') return withinBudget(file, settings, io);
  }
  return withinBudget(script, settings, io);
}

/** What the browser may see of it: no message bodies (the incumbent's `context_status.prefill`). */
export function publicPrefillStatus(context: PrefillContext): RunEventPayloads['context_status']['prefill'] {
  return {
    status: context.status,
    source: context.source,
    label: context.label,
    message_count: context.messages.length,
    ...(context.error ? { error: context.error } : {}),
    ...(context.compacted
      ? { compacted: true as const, original_source: context.originalSource!, original_char_count: context.originalCharCount!, max_chars: context.maxChars! }
      : {}),
  };
}

/**
 * Where prefill goes in the model's request: `system` items and a trailing run of `user` items
 * join the system prompt (strict chat templates refuse a second system message and two user
 * turns in a row; the incumbent drops such trailing items, which loses plain-text script output),
 * the rest sits between the system prompt and the conversation.
 */
export function prefillForModel(messages: PrefillMessage[]): { system: string; exchange: ChatMessage[] } {
  const exchange = messages.filter((m) => m.role !== 'system');
  let end = exchange.length;
  while (end > 0 && exchange[end - 1]!.role === 'user') end--;
  const folded = [...messages.filter((m) => m.role === 'system'), ...exchange.slice(end)].map((m) => m.content.trim());
  return {
    system: folded.length ? `# Context provided for this chat\n\n${folded.join('\n\n')}` : '',
    exchange: exchange.slice(0, end).map((m) => ({ role: m.role, content: m.content })),
  };
}
