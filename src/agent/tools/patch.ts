import { createTwoFilesPatch } from 'diff';
import { bool, errorMessage, json, str, toolError } from './args.js';
import { approveEdit } from './edit-approval.js';
import { guardedToolPath } from './guarded-path.js';
import { displayPath } from './paths.js';
import type { Tool } from './types.js';

/** A diff longer than this is cut: the model needs to see that the edit landed, not every line. */
const MAX_DIFF_CHARS = 20_000;

interface Span {
  start: number;
  end: number;
}

type MatchKind = 'exact' | 'trailing-whitespace' | 'indentation';

/** Non-overlapping occurrences of `needle`, left to right. */
function exactSpans(text: string, needle: string): Span[] {
  const spans: Span[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) {
    spans.push({ start: i, end: i + needle.length });
  }
  return spans;
}

/** `old_string` as lines, without the empty last line its final newline would add. */
function needleLines(needle: string): string[] {
  const lines = needle.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Whole-line windows of the file that equal `needle` line by line once `norm` is applied: the
 * model often gets indentation or trailing blanks wrong while the text itself is right.
 */
function lineSpans(text: string, needle: string, norm: (line: string) => string): Span[] {
  const want = needleLines(needle).map(norm);
  if (want.every((l) => l === '')) return []; // blank lines would match anywhere
  const lines = text.split('\n');
  const starts: number[] = [];
  let pos = 0;
  for (const line of lines) {
    starts.push(pos);
    pos += line.length + 1;
  }
  const spans: Span[] = [];
  for (let i = 0; i + want.length <= lines.length; i++) {
    if (!want.every((w, k) => norm(lines[i + k] ?? '') === w)) continue;
    const last = i + want.length - 1;
    const lastLine = lines[last] ?? '';
    // The last line's CR belongs to its line ending, which stays.
    spans.push({ start: starts[i] ?? 0, end: (starts[last] ?? 0) + lastLine.length - (lastLine.endsWith('\r') ? 1 : 0) });
    i = last; // matches do not overlap
  }
  return spans;
}

const leadingSpace = (line: string): string => /^[ \t]*/.exec(line)?.[0] ?? '';

/**
 * Fits `replacement` to the text it replaces when the match was whitespace-tolerant: the old
 * text's trailing newline is already outside the span, the file's indentation wins over the
 * model's, and a CRLF file keeps CRLF.
 */
function fitReplacement(replacement: string, needle: string, matched: string, kind: MatchKind): string {
  let out = needle.endsWith('\n') && replacement.endsWith('\n') ? replacement.slice(0, -1) : replacement;
  if (kind === 'indentation') {
    const oldFirst = needleLines(needle).find((l) => l.trim() !== '') ?? '';
    const fileFirst = matched.split('\n').find((l) => l.trim() !== '') ?? '';
    const from = leadingSpace(oldFirst);
    const to = leadingSpace(fileFirst);
    if (from !== to) {
      out = out
        .split('\n')
        .map((l) => (l.trim() === '' ? l : l.startsWith(from) ? to + l.slice(from.length) : l))
        .join('\n');
    }
  }
  if (matched.includes('\r\n')) out = out.replace(/\r?\n/g, '\r\n');
  return out;
}

function findSpans(text: string, needle: string): { kind: MatchKind; spans: Span[] } | null {
  const exact = exactSpans(text, needle);
  if (exact.length) return { kind: 'exact', spans: exact };
  const trailing = lineSpans(text, needle, (l) => l.trimEnd());
  if (trailing.length) return { kind: 'trailing-whitespace', spans: trailing };
  const indented = lineSpans(text, needle, (l) => l.trim());
  if (indented.length) return { kind: 'indentation', spans: indented };
  return null;
}

/** Replaces `needle` in `text` with the same tolerant matching as the patch tool (skill_manage's patch reuses it). */
export function replaceTolerant(
  text: string,
  needle: string,
  replacement: string,
  replaceAll: boolean,
): { content: string; count: number } | { error: 'not_found' | 'ambiguous'; count: number } {
  const found = findSpans(text, needle);
  if (!found) return { error: 'not_found', count: 0 };
  if (found.spans.length > 1 && !replaceAll) return { error: 'ambiguous', count: found.spans.length };
  let out = text;
  for (const span of [...found.spans].reverse()) {
    const matched = text.slice(span.start, span.end);
    out = out.slice(0, span.start) + (found.kind === 'exact' ? replacement : fitReplacement(replacement, needle, matched, found.kind)) + out.slice(span.end);
  }
  return { content: out, count: found.spans.length };
}

export const patchTool: Tool = {
  spec: {
    name: 'patch',
    description:
      'Targeted find-and-replace edits in files. Use this instead of sed/awk in terminal. ' +
      'Matches exactly first, then tolerates trailing-whitespace and indentation differences (re-indenting new_string to the file). ' +
      'Returns a unified diff.\n\n' +
      "REPLACE MODE (mode='replace', default): find a unique string and replace it. REQUIRED PARAMETERS: path, old_string, new_string.\n" +
      "PATCH MODE (mode='patch', V4A multi-file patches) is not supported here: make one replace call per change.",
    parameters: {
      type: 'object',
      properties: {
        mode: {
          type: 'string',
          enum: ['replace', 'patch'],
          description: "Edit mode. 'replace' (default): requires path + old_string + new_string. 'patch' is not supported.",
          default: 'replace',
        },
        path: { type: 'string', description: "REQUIRED when mode='replace'. File path to edit." },
        old_string: {
          type: 'string',
          description:
            'Exact text to find and replace. Must be unique in the file unless replace_all=true. Include surrounding context lines to ensure uniqueness.',
        },
        new_string: { type: 'string', description: "Replacement text. Pass empty string '' to delete the matched text." },
        replace_all: { type: 'boolean', description: 'Replace all occurrences instead of requiring a unique match (default: false)', default: false },
        patch: { type: 'string', description: "V4A patch content for mode='patch' (not supported)." },
      },
      required: ['mode'],
    },
  },
  async run(args, ctx) {
    const mode = str(args.mode) ?? 'replace';
    if (mode === 'patch') {
      return toolError("Only mode='replace' is supported: apply each change as a separate replace call with path, old_string and new_string");
    }
    if (mode !== 'replace') return toolError(`Unknown mode '${mode}'; use 'replace'`);
    const path = str(args.path);
    if (!path?.trim()) return toolError("path is required when mode='replace'");
    if (typeof args.old_string !== 'string' || args.old_string === '') return toolError('old_string is required and must not be empty');
    if (typeof args.new_string !== 'string') return toolError("new_string is required (use '' to delete)");
    const oldString = args.old_string;
    const newString = args.new_string;
    if (oldString === newString) return toolError('old_string and new_string are identical; nothing to change');
    const replaceAll = bool(args.replace_all, false);

    const guarded = await guardedToolPath(ctx, path, 'edit');
    if (guarded.error) return toolError(guarded.error);
    const abs = guarded.abs;

    let before: string | null;
    try {
      before = await ctx.host.readText(abs);
    } catch (err) {
      return toolError(`Cannot read ${abs}: ${errorMessage(err)}`);
    }
    if (before === null) return toolError(`File not found: ${abs}`);

    const found = findSpans(before, oldString);
    if (!found) {
      return toolError(
        `Could not find old_string in ${abs}, not even ignoring trailing whitespace and indentation. ` +
          'Use read_file to check the current content, or search_files to locate the text.',
      );
    }
    if (found.spans.length > 1 && !replaceAll) {
      return toolError(`old_string matches ${found.spans.length} times in ${abs}; include more surrounding context to make it unique, or set replace_all=true`);
    }

    let after = before;
    for (const span of [...found.spans].reverse()) {
      const matched = before.slice(span.start, span.end);
      const replacement = found.kind === 'exact' ? newString : fitReplacement(newString, oldString, matched, found.kind);
      after = after.slice(0, span.start) + replacement + after.slice(span.end);
    }
    const edited = after;
    const refused = await approveEdit(ctx, { tool: 'patch', abs, real: guarded.real, load: async () => ({ before, after: edited }) });
    if (refused) return toolError(refused);
    try {
      await ctx.host.writeText(abs, after);
    } catch (err) {
      return toolError(`Cannot write ${abs}: ${errorMessage(err)}`);
    }

    const shown = displayPath(abs, ctx.workspace);
    let diff = createTwoFilesPatch(`a/${shown}`, `b/${shown}`, before, after, undefined, undefined, { context: 3 });
    if (diff.length > MAX_DIFF_CHARS) diff = `${diff.slice(0, MAX_DIFF_CHARS)}\n… [diff truncated: ${diff.length - MAX_DIFF_CHARS} characters omitted]`;
    return json({ success: true, path: abs, replacements: found.spans.length, match: found.kind, diff });
  },
};
