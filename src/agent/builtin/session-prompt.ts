import type { Session } from '../../shared/session.js';
import type { MemoryConfig } from '../config.js';
import type { ToolHost } from '../tools/types.js';
import { buildSystemPrompt } from './system-prompt.js';

/**
 * The system prompt of a session, built on its first turn and stored with it (Hermes keeps it
 * per session in state.db), so every later turn, and a restarted server, sends the very same
 * bytes and the provider's prompt cache keeps hitting. It is rebuilt only when what it states
 * would be wrong: another model, provider, workspace or tool list.
 */
export const SESSION_PROMPT_KEY = 'builtin_system_prompt';

export interface StoredSystemPrompt {
  text: string;
  model: string;
  provider: string;
  workspace: string;
  tools: string[];
}

function stored(session: Session): StoredSystemPrompt | null {
  const v = session[SESSION_PROMPT_KEY] as Partial<StoredSystemPrompt> | undefined;
  if (!v || typeof v !== 'object' || typeof v.text !== 'string' || !v.text) return null;
  if (typeof v.model !== 'string' || typeof v.provider !== 'string' || typeof v.workspace !== 'string' || !Array.isArray(v.tools)) return null;
  return v as StoredSystemPrompt;
}

/** The prompt for this turn, and the value to store when it was (re)built. */
export async function sessionSystemPrompt(input: {
  session: Session;
  host: ToolHost | null;
  hermesHome: string;
  workspace: string;
  model: string;
  provider: string;
  toolNames: string[];
  memory?: MemoryConfig;
  /** The skills index block, asked for only when the prompt is (re)built. */
  skillsIndex?: () => Promise<string>;
}): Promise<{ text: string; store: StoredSystemPrompt | null }> {
  const { session, model, provider, workspace, toolNames } = input;
  const kept = stored(session);
  if (kept && kept.model === model && kept.provider === provider && kept.workspace === workspace && kept.tools.join('\n') === toolNames.join('\n')) {
    return { text: kept.text, store: null };
  }
  const text = await buildSystemPrompt({
    host: input.host,
    hermesHome: input.hermesHome,
    workspace,
    model,
    provider,
    // The session's start, not this turn's: a rebuilt prompt does not change for the clock.
    now: new Date(session.created_at * 1000),
    toolNames,
    ...(input.memory ? { memory: input.memory } : {}),
    ...(input.skillsIndex ? { skillsIndex: await input.skillsIndex() } : {}),
  });
  return { text, store: { text, model, provider, workspace, tools: [...toolNames] } };
}
