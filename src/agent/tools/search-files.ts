import { clamp, errorMessage, int, json, str, toolError } from './args.js';
import { normalizePath, resolveToolPath, toolBaseDir } from './paths.js';
import type { SearchRequest, Tool } from './types.js';

const MAX_LIMIT = 500;
const MAX_CONTEXT = 10;

export const searchFilesTool: Tool = {
  spec: {
    name: 'search_files',
    description:
      'Search file contents or find files by name. Use this instead of grep/rg/find/ls in terminal.\n\n' +
      "Content search (target='content'): regex search inside files. Output modes: matching lines with line numbers ('path:line:text'), file paths only, or match counts per file.\n\n" +
      "File search (target='files'): find files by glob pattern (e.g., '*.py', '*config*'), newest first. Also use this instead of ls.\n\n" +
      'Hidden files and node_modules are skipped. Paths are relative to the workspace when inside it.',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: "Regex pattern for content search, or glob pattern (e.g., '*.py') for file search" },
        target: {
          type: 'string',
          enum: ['content', 'files'],
          description: "'content' searches inside file contents, 'files' searches for files by name",
          default: 'content',
        },
        path: { type: 'string', description: 'Directory or file to search in (default: the workspace)', default: '.' },
        file_glob: { type: 'string', description: "Filter files by pattern in content search (e.g., '*.py' to only search Python files)" },
        limit: { type: 'integer', description: 'Maximum number of results to return (default: 50)', default: 50 },
        offset: { type: 'integer', description: 'Skip first N results for pagination (default: 0)', default: 0 },
        output_mode: {
          type: 'string',
          enum: ['content', 'files_only', 'count'],
          description:
            "Output format for content search: 'content' shows matching lines with line numbers, 'files_only' lists file paths, 'count' shows match counts per file",
          default: 'content',
        },
        context: { type: 'integer', description: 'Number of context lines before and after each match (content search only)', default: 0 },
      },
      required: ['pattern'],
    },
  },
  async run(args, ctx) {
    const pattern = str(args.pattern);
    if (!pattern) return toolError('pattern is required');
    // Hermes' older names for the targets.
    const rawTarget = str(args.target) ?? 'content';
    const target = rawTarget === 'grep' ? 'content' : rawTarget === 'find' ? 'files' : rawTarget;
    if (target !== 'content' && target !== 'files') return toolError(`Unknown target '${rawTarget}'; use 'content' or 'files'`);
    const outputMode = str(args.output_mode) ?? 'content';
    if (outputMode !== 'content' && outputMode !== 'files_only' && outputMode !== 'count') {
      return toolError(`Unknown output_mode '${outputMode}'; use 'content', 'files_only' or 'count'`);
    }
    const limit = clamp(int(args.limit, 50), 1, MAX_LIMIT);
    const offset = Math.max(0, int(args.offset, 0));
    const context = clamp(int(args.context, 0), 0, MAX_CONTEXT);
    const fileGlob = str(args.file_glob)?.trim() || undefined;
    const root = resolveToolPath(str(args.path) ?? '.', toolBaseDir(ctx), ctx.host.homeDir);

    const st = await ctx.host.stat(root).catch(() => null);
    if (!st) return toolError(`Path not found: ${root}`);

    // A bare word in file search means "names containing it", not an exact name only.
    const filePattern = target === 'files' && !/[*?[{]/.test(pattern) ? `*${pattern}*` : pattern;
    const request: SearchRequest = {
      pattern: filePattern,
      path: root,
      target,
      ...(fileGlob ? { fileGlob } : {}),
      limit,
      offset,
      outputMode,
      context,
      signal: ctx.signal,
    };
    try {
      const r = await ctx.host.search(request);
      const prefix = normalizePath(ctx.workspace) + '/';
      const matches = r.matches.map((m) => (m.startsWith(prefix) ? m.slice(prefix.length) : m));
      const result: Record<string, unknown> = { matches, total: r.total, truncated: r.truncated };
      if (r.truncated) result.hint = `More results: use offset=${offset + limit}, or narrow with a more specific pattern or file_glob`;
      if (r.total === 0) result.hint = target === 'files' ? `No files match ${filePattern}` : 'No matches';
      return json(result);
    } catch (err) {
      return toolError(`Search failed: ${errorMessage(err)}`);
    }
  },
};
