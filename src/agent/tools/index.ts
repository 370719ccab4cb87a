import type { ToolSpec } from '../messages.js';
import { clarifyTool } from './clarify.js';
import { memoryTool } from './memory.js';
import { patchTool } from './patch.js';
import { processTool } from './process.js';
import { readFileTool } from './read-file.js';
import { searchFilesTool } from './search-files.js';
import { terminalTool } from './terminal.js';
import { todoTool } from './todo.js';
import type { Tool } from './types.js';
import { writeFileTool } from './write-file.js';

export interface BuiltinToolOptions {
  /** `terminal.timeout` from config: the terminal tool's default timeout in seconds. */
  terminalTimeoutSeconds: number;
  /** `tool_output.max_bytes`: how much of a command's output the model sees (default 50,000). */
  terminalMaxOutputChars?: number;
  /** `security.redact_secrets` (default on): mask credentials in command output before the model reads it. */
  redactSecrets?: boolean;
}

/** The tools of Hermes' core toolsets that this runtime implements, in Hermes' order. */
export function builtinTools(options: BuiltinToolOptions): Tool[] {
  return [
    terminalTool({
      defaultTimeoutSeconds: options.terminalTimeoutSeconds,
      maxOutputChars: options.terminalMaxOutputChars,
      redactSecrets: options.redactSecrets,
    }),
    processTool({ maxWaitSeconds: options.terminalTimeoutSeconds, redactSecrets: options.redactSecrets }),
    readFileTool,
    writeFileTool,
    patchTool,
    searchFilesTool,
    todoTool,
    memoryTool,
    clarifyTool,
  ];
}

/** What the model is told about the tools. */
export function toolSpecs(tools: Tool[]): ToolSpec[] {
  return tools.map((t) => t.spec);
}

export { clarifyTool, memoryTool, patchTool, processTool, readFileTool, searchFilesTool, terminalTool, todoTool, writeFileTool };
