import { clamp, errorMessage, int, str, toolError } from './args.js';
import { resolveToolPath, toolBaseDir } from './paths.js';
import type { Tool } from './types.js';

const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 2000;
/** One read returning more than this would swamp the context; the model should page instead. */
const MAX_READ_CHARS = 100_000;
/** Minified files have enormous lines; cut each so one line cannot fill the read. */
const MAX_LINE_CHARS = 2000;
/** Bigger files are not loaded whole into memory just to page through them. */
const MAX_FILE_BYTES = 50 * 1024 * 1024;

export const readFileTool: Tool = {
  spec: {
    name: 'read_file',
    description:
      "Read a text file with line numbers and pagination. Use this instead of cat/head/tail in terminal. Output format: 'LINE_NUM|CONTENT'. " +
      'Use offset and limit for large files; a note at the end tells the offset of the next page. ' +
      `Reads over ~${MAX_READ_CHARS / 1000}K characters are rejected: read a smaller range. Cannot read binary files.`,
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Path to the file to read (absolute, relative to the workspace, or ~/path)' },
        offset: { type: 'integer', description: 'Line number to start reading from (1-indexed, default: 1)', default: 1, minimum: 1 },
        limit: {
          type: 'integer',
          description: `Maximum number of lines to read (default: ${DEFAULT_LIMIT}, max: ${MAX_LIMIT})`,
          default: DEFAULT_LIMIT,
          maximum: MAX_LIMIT,
        },
      },
      required: ['path'],
    },
  },
  async run(args, ctx) {
    const path = str(args.path);
    if (!path?.trim()) return toolError('path is required');
    const offset = Math.max(1, int(args.offset, 1));
    const limit = clamp(int(args.limit, DEFAULT_LIMIT), 1, MAX_LIMIT);
    const abs = resolveToolPath(path, toolBaseDir(ctx), ctx.host.homeDir);

    let text: string | null;
    try {
      const st = await ctx.host.stat(abs);
      if (!st) return toolError(`File not found: ${abs}`);
      if (st.isDir) return toolError(`${abs} is a directory; use search_files with target='files' to list it`);
      if (!st.isFile) return toolError(`${abs} is not a regular file`);
      if (st.size > MAX_FILE_BYTES) return toolError(`${abs} is too large to read (${st.size} bytes); use terminal tools such as head or sed -n`);
      text = await ctx.host.readText(abs);
    } catch (err) {
      return toolError(`Cannot read ${abs}: ${errorMessage(err)}`);
    }
    if (text === null) return toolError(`File not found: ${abs}`);
    if (text.includes('\0')) return toolError(`${abs} is a binary file; read_file only reads text`);
    if (text === '') return `(${abs} is empty)`;

    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop(); // a final newline does not start another line
    const total = lines.length;
    if (offset > total) return toolError(`offset ${offset} is past the end of the file (${total} lines)`);

    const end = Math.min(total, offset - 1 + limit);
    const width = Math.max(6, String(end).length);
    const out: string[] = [];
    for (let i = offset - 1; i < end; i++) {
      let line = (lines[i] ?? '').replace(/\r$/, '');
      if (line.length > MAX_LINE_CHARS) line = `${line.slice(0, MAX_LINE_CHARS)}… [line truncated: ${line.length} chars]`;
      out.push(`${String(i + 1).padStart(width)}|${line}`);
    }
    if (end < total) out.push(`... (${total - end} more lines; use offset=${end + 1})`);
    const result = out.join('\n');
    if (result.length > MAX_READ_CHARS) {
      return toolError(`Reading lines ${offset}-${end} returns ${result.length} characters (max ${MAX_READ_CHARS}); use a smaller limit`);
    }
    return result;
  },
};
