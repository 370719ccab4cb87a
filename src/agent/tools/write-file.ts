import { errorMessage, json, str, toolError, utf8Bytes } from './args.js';
import { resolveToolPath, sensitiveWriteReason, toolBaseDir } from './paths.js';
import type { Tool } from './types.js';

export const writeFileTool: Tool = {
  spec: {
    name: 'write_file',
    description:
      'Write content to a file, completely replacing existing content. Use this instead of echo/cat heredoc in terminal. ' +
      "Creates parent directories automatically. OVERWRITES the entire file — use 'patch' for targeted edits. " +
      'Credential files (~/.ssh, ~/.aws, .env, …) are refused.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: "Path to the file to write (will be created if it doesn't exist, overwritten if it does)" },
        content: { type: 'string', description: 'Complete content to write to the file' },
      },
      required: ['path', 'content'],
    },
  },
  async run(args, ctx) {
    const path = str(args.path);
    if (!path?.trim()) return toolError("write_file: missing required field 'path'");
    // A dropped `content` is a truncated call, not a request to empty the file.
    if (typeof args.content !== 'string') return toolError("write_file: missing required string field 'content'");
    const content = args.content;
    const abs = resolveToolPath(path, toolBaseDir(ctx), ctx.host.homeDir);
    const refused = sensitiveWriteReason(abs, ctx.host.homeDir, ctx.hermesHome);
    if (refused) return toolError(`Refusing to write ${abs}: ${refused}`);
    try {
      const st = await ctx.host.stat(abs);
      if (st?.isDir) return toolError(`${abs} is a directory`);
      await ctx.host.writeText(abs, content);
    } catch (err) {
      return toolError(`Cannot write ${abs}: ${errorMessage(err)}`);
    }
    return json({ success: true, path: abs, bytes_written: utf8Bytes(content) });
  },
};
