import type { MemoryConfig } from '../config.js';
import { DEFAULT_MEMORY_CONFIG, renderMemorySnapshot } from '../tools/memory-store.js';
import type { ToolHost } from '../tools/types.js';

const DEFAULT_IDENTITY =
  "You are Hermes, a capable AI agent working on the user's files through a web interface. " +
  'You can run shell commands, read, write and patch files, search the workspace, keep a todo list, ' +
  'remember things across sessions, and ask the user clarifying questions.';

async function readOptional(host: ToolHost | null, path: string, limit = 20_000): Promise<string | null> {
  if (!host) return null;
  try {
    const text = await host.readText(path);
    return text?.trim() ? text.slice(0, limit) : null;
  } catch {
    return null;
  }
}

/**
 * The system prompt, in Hermes' order: identity (SOUL.md or the default), guidance, project
 * context (AGENTS.md in the workspace), a frozen memory snapshot, then time, model and place.
 */
export async function buildSystemPrompt(input: {
  host: ToolHost | null;
  hermesHome: string;
  workspace: string;
  model: string;
  provider: string;
  now: Date;
  toolNames: string[];
  /** `memory.*` from config (which stores, what limits); Hermes' defaults when absent. */
  memory?: MemoryConfig;
  /** The `## Skills` index (knowledge.ts skillsPromptBlock); '' or absent for none. */
  skillsIndex?: string;
}): Promise<string> {
  const { host, hermesHome, workspace } = input;
  const [soul, agents, memory, user] = await Promise.all([
    readOptional(host, `${hermesHome}/SOUL.md`),
    readOptional(host, `${workspace}/AGENTS.md`),
    readOptional(host, `${hermesHome}/memories/MEMORY.md`, 1_000_000),
    readOptional(host, `${hermesHome}/memories/USER.md`, 1_000_000),
  ]);
  const parts = [soul ?? DEFAULT_IDENTITY];
  parts.push(
    [
      'Guidance:',
      '- Work in the workspace unless told otherwise; relative paths are resolved against it.',
      '- Prefer reading and searching before changing files; make focused edits with `patch`.',
      "- Some shell commands need the user's approval. If a command is BLOCKED, do not retry it: explain what you wanted and ask.",
      "- Use `clarify` only when you truly cannot proceed without the user's choice.",
      '- Answer in Markdown. Be concise.',
    ].join('\n'),
  );
  if (agents) parts.push(`Project instructions (AGENTS.md):\n${agents}`);
  // The files as they are now, read once: the prompt keeps this snapshot while the tool edits the files.
  const snapshot = renderMemorySnapshot({ memory, user }, input.memory ?? DEFAULT_MEMORY_CONFIG);
  if (snapshot) parts.push(snapshot);
  if (input.skillsIndex) parts.push(input.skillsIndex);
  parts.push(
    [
      `Conversation started: ${input.now.toISOString()}`,
      `Model: ${input.model}`,
      `Provider: ${input.provider}`,
      `Workspace: ${workspace}`,
      input.toolNames.length ? `Tools: ${input.toolNames.join(', ')}` : 'Tools: none',
    ].join('\n'),
  );
  return parts.join('\n\n');
}
