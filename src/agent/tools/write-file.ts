import { errorMessage, json, str, toolError, utf8Bytes } from './args.js';
import { approveEdit } from './edit-approval.js';
import { guardedToolPath } from './guarded-path.js';
import type { Tool } from './types.js';

export const writeFileTool: Tool = {
  spec: {
    name: 'write_file',
    description:
      'Write content to a file, completely replacing existing content. Use this instead of echo/cat heredoc in terminal. ' +
      "Creates parent directories automatically. OVERWRITES the entire file — use 'patch' for targeted edits. " +
      'System paths, credential files and Hermes state (config.yaml, state.db, sessions/) are refused.',
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
    const guarded = await guardedToolPath(ctx, path, 'write');
    if (guarded.error) return toolError(guarded.error);
    const abs = guarded.abs;
    try {
      const st = await ctx.host.stat(abs);
      if (st?.isDir) return toolError(`${abs} is a directory`);
    } catch (err) {
      return toolError(`Cannot write ${abs}: ${errorMessage(err)}`);
    }
    // Outside the try: a run cancelled while the card waits ends the turn, not this call.
    const refused = await approveEdit(ctx, {
      tool: 'write_file',
      abs,
      real: guarded.real,
      load: async () => ({ before: await ctx.host.readText(abs), after: content }),
    });
    if (refused) return toolError(refused);
    try {
      await ctx.host.writeText(abs, content);
    } catch (err) {
      return toolError(`Cannot write ${abs}: ${errorMessage(err)}`);
    }
    return json({ success: true, path: abs, bytes_written: utf8Bytes(content) });
  },
};
