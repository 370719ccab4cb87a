import type { ToolSpec } from '../messages.js';
import { clarifyTool } from './clarify.js';
import type { MemoryConfig } from '../config.js';
import { createMemoryTool, memoryTool } from './memory.js';
import { delegateTaskTool } from './delegate.js';
import { patchTool } from './patch.js';
import { processTool } from './process.js';
import { readFileTool } from './read-file.js';
import { searchFilesTool } from './search-files.js';
import { sessionSearchTool } from './session-search.js';
import { skillManageTool } from './skill-manage.js';
import { skillsListTool, skillViewTool } from './skills.js';
import { terminalTool } from './terminal.js';
import { todoTool } from './todo.js';
import type { Tool } from './types.js';
import { visionAnalyzeTool } from './vision.js';
import { webExtractTool } from './web-extract.js';
import { webSearchTool } from './web-search.js';
import { writeFileTool } from './write-file.js';

export interface BuiltinToolOptions {
  /** `terminal.timeout` from config: the terminal tool's default timeout in seconds. */
  terminalTimeoutSeconds: number;
  /** `memory.*` from config: the memory tool's limits; without it Hermes' defaults. Both stores off drops the tool. */
  memory?: MemoryConfig;
  /** Offer web_search and web_extract: Hermes registers them only when a web backend is configured. */
  webTools?: boolean;
  /** `tool_output.max_bytes`: how much of a command's output the model sees (default 50,000). */
  terminalMaxOutputChars?: number;
  /** `security.redact_secrets` (default on): mask credentials in command output before the model reads it. */
  redactSecrets?: boolean;
}

/** The tools of Hermes' core toolsets that this runtime implements, in Hermes' order. */
export function builtinTools(options: BuiltinToolOptions): Tool[] {
  return [
    ...(options.webTools ? [webSearchTool, webExtractTool] : []),
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
    ...(options.memory && !options.memory.memoryEnabled && !options.memory.userProfileEnabled ? [] : [createMemoryTool(options.memory)]),
    clarifyTool,
    sessionSearchTool,
    skillsListTool,
    skillViewTool,
    skillManageTool,
    visionAnalyzeTool,
    // Its description names the configured limits; the runtime swaps in one built from config.yaml.
    delegateTaskTool({ maxConcurrentChildren: 3, maxSpawnDepth: 1 }),
  ];
}

/** What the model is told about the tools. */
export function toolSpecs(tools: Tool[]): ToolSpec[] {
  return tools.map((t) => t.spec);
}

export { clarifyTool, memoryTool, patchTool, processTool, readFileTool, searchFilesTool, terminalTool, todoTool, webExtractTool, webSearchTool, writeFileTool };
