import type { CronRunOutput } from './types.js';
import { parseStoredTime } from './schedule.js';
import { wallText } from './time-zone.js';

/**
 * A run's output file, `cron/output/<job_id>/<YYYY-MM-DD_HH-MM-SS>.md`, in the layout Hermes'
 * scheduler writes and the incumbent reads back:
 *
 *   # Cron Job: <name>            (" (FAILED)" appended for a failed run)
 *
 *   **Job ID:** <id>
 *   **Run Time:** 2026-12-01 09:00:00
 *   **Schedule:** <display>
 *   **Model:** … / **Provider:** … / **Tokens:** 120 input, 40 output / **Cost:** $0.0012 /
 *   **Duration:** 12.3s / **Session:** <our session id>      (each only when known)
 *
 *   ## Prompt
 *
 *   <prompt>
 *
 *   ## Response            (or "## Error" with the error in a fence)
 *
 *   <response>
 */

export interface OutputHeader {
  job_name: string;
  prompt: string;
  schedule_display: string;
}

/** The file name for a run finished at `at` (Hermes' strftime `%Y-%m-%d_%H-%M-%S`, in the profile zone). */
export function outputFilename(at: Date, timeZone: string): string {
  return `${wallText(at, timeZone, true).replace(' ', '_').replace(/:/g, '-')}.md`;
}

/** One safe file name inside a job's output folder (no separators, no `..`). */
export const OUTPUT_FILENAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}\.md$/;

function tokensLine(input: number | null, output: number | null): string | null {
  const parts = [input != null ? `${input} input` : null, output != null ? `${output} output` : null].filter(Boolean);
  return parts.length ? parts.join(', ') : null;
}

export function renderOutput(run: Omit<CronRunOutput, 'filename' | 'content'>, header: OutputHeader, timeZone: string): string {
  const at = new Date(run.run_at);
  const failed = run.status === 'error';
  const meta: [string, string | null][] = [
    ['Job ID', run.job_id],
    ['Run Time', Number.isNaN(at.getTime()) ? run.run_at : wallText(at, timeZone, true)],
    ['Schedule', header.schedule_display],
    ['Model', run.model],
    ['Provider', run.provider],
    ['Tokens', tokensLine(run.input_tokens, run.output_tokens)],
    ['Cost', run.cost != null ? `$${run.cost.toFixed(6).replace(/0+$/, '').replace(/\.$/, '.0')}` : null],
    ['Duration', run.duration_seconds != null ? `${Math.round(run.duration_seconds * 10) / 10}s` : null],
    ['Session', run.session_id],
  ];
  const lines = [`# Cron Job: ${header.job_name}${failed ? ' (FAILED)' : ''}`, ''];
  for (const [label, value] of meta) if (value != null && value !== '') lines.push(`**${label}:** ${value}`);
  lines.push('', '## Prompt', '', header.prompt, '');
  if (failed) lines.push('## Error', '', '```', run.response, '```', '');
  else lines.push('## Response', '', run.response, '');
  return lines.join('\n');
}

/** The section after a `## <name>` heading that follows the prompt (a prompt may contain headings). */
function sectionAfter(text: string, name: string): string | null {
  const promptAt = text.indexOf('\n## Prompt\n');
  const marker = `\n## ${name}\n`;
  const at = text.indexOf(marker, promptAt === -1 ? 0 : promptAt + 1);
  if (at === -1) return text.startsWith(`## ${name}\n`) ? text.slice(name.length + 4) : null;
  return text.slice(at + marker.length);
}

const number = (value: string | undefined) => {
  const m = /[-+]?\d+(?:\.\d+)?/.exec((value ?? '').replace(/,/g, ''));
  return m ? Number(m[0]) : null;
};

/** Parses a file back (ours, Hermes' or a hand-made one; missing lines are null). */
export function parseOutput(jobId: string, filename: string, content: string, timeZone: string, mtime: number | null): CronRunOutput {
  const head = content.split('\n## Response')[0]!.split('\n## Error')[0]!;
  const fields = new Map<string, string>();
  for (const line of head.split('\n')) {
    const m = /^\*\*([A-Za-z ]+):\*\*\s*(.*)$/.exec(line.trim());
    if (m) fields.set(m[1]!.toLowerCase(), m[2]!.trim());
  }
  const tokens = fields.get('tokens') ?? '';
  const tokenCount = (word: string) => {
    const m = new RegExp(`([0-9][0-9,]*)\\s*(?:${word})\\b`, 'i').exec(tokens);
    return m ? Number(m[1]!.replace(/,/g, '')) : null;
  };
  const error = sectionAfter(content, 'Error');
  const response = sectionAfter(content, 'Response');
  const failed = error !== null || /^# Cron Job: .*\(FAILED\)\s*$/m.test(head);
  const stamp = /^(\d{4}-\d{2}-\d{2})_(\d{2})-(\d{2})-(\d{2})/.exec(filename);
  const runAt =
    parseStoredTime(fields.get('run time'), timeZone) ??
    (stamp ? parseStoredTime(`${stamp[1]}T${stamp[2]}:${stamp[3]}:${stamp[4]}`, timeZone) : null) ??
    (mtime != null ? new Date(mtime * 1000) : new Date(0));
  const body = error !== null ? error.replace(/^\s*```\n?/, '').replace(/\n?```\s*$/, '') : (response ?? '');
  return {
    job_id: jobId,
    filename,
    run_at: runAt.toISOString(),
    status: failed ? 'error' : 'ok',
    model: fields.get('model') ?? fields.get('model used') ?? null,
    provider: fields.get('provider') ?? null,
    input_tokens: tokenCount('input|in'),
    output_tokens: tokenCount('output|out'),
    cost: number(fields.get('cost') ?? fields.get('estimated cost')),
    duration_seconds: number(fields.get('duration') ?? fields.get('elapsed')),
    session_id: fields.get('session') || null,
    response: body.trim(),
    content,
  };
}

/** The incumbent's `usage` object for history rows (only the keys it found). */
export function outputUsage(run: CronRunOutput): Record<string, string | number> {
  const usage: Record<string, string | number> = {};
  if (run.model) usage.model = run.model;
  if (run.provider) usage.provider = run.provider;
  if (run.cost != null) usage.estimated_cost_usd = run.cost;
  if (run.duration_seconds != null) usage.duration_seconds = run.duration_seconds;
  if (run.input_tokens != null) usage.input_tokens = run.input_tokens;
  if (run.output_tokens != null) usage.output_tokens = run.output_tokens;
  const total = (run.input_tokens ?? 0) + (run.output_tokens ?? 0);
  if (total) usage.total_tokens = total;
  return usage;
}

/** The response part, at most `limit` characters (the incumbent's snippet; "(empty)" for none). */
export function outputSnippet(run: CronRunOutput, limit = 600): string {
  return run.response.slice(0, limit) || '(empty)';
}

/**
 * At most `limit` characters of a file, keeping the response: a long prompt (skills pasted in)
 * is cut rather than the answer (the incumbent's content window).
 */
export function outputWindow(text: string, limit = 8000, headerContext = 200): string {
  if (text.length <= limit) return text;
  const found = text.indexOf('\n## Response');
  const at = text.startsWith('## Response') ? 0 : found === -1 ? -1 : found + 1;
  if (at >= 0) {
    const header = text.slice(0, Math.min(headerContext, at)).trimEnd();
    const response = text.slice(at).replace(/^\n+/, '');
    return (header ? `${header}\n...\n${response}` : response).slice(0, limit);
  }
  return text.slice(-limit);
}
