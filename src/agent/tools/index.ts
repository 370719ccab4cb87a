import type { ToolSpec } from '../messages.js';
import { clarifyTool } from './clarify.js';
import { delegateTaskTool } from './delegate.js';
import { memoryTool } from './memory.js';
import { patchTool } from './patch.js';
import { readFileTool } from './read-file.js';
import { searchFilesTool } from './search-files.js';
import { terminalTool } from './terminal.js';
import { todoTool } from './todo.js';
import type { Tool } from './types.js';
import { writeFileTool } from './write-file.js';

export interface BuiltinToolOptions {
  /** `terminal.timeout` from config: the terminal tool's default timeout in seconds. */
  terminalTimeoutSeconds: number;
}

/** The tools of Hermes' core toolsets that this runtime implements, in Hermes' order. */
export function builtinTools(options: BuiltinToolOptions): Tool[] {
  return [
    terminalTool({ defaultTimeoutSeconds: options.terminalTimeoutSeconds }),
    readFileTool,
    writeFileTool,
    patchTool,
    searchFilesTool,
    todoTool,
    memoryTool,
    clarifyTool,
    // Its description names the configured limits; the runtime swaps in one built from config.yaml.
    delegateTaskTool({ maxConcurrentChildren: 3, maxSpawnDepth: 1 }),
  ];
}

/** What the model is told about the tools. */
export function toolSpecs(tools: Tool[]): ToolSpec[] {
  return tools.map((t) => t.spec);
}

export { clarifyTool, memoryTool, patchTool, readFileTool, searchFilesTool, terminalTool, todoTool, writeFileTool };
