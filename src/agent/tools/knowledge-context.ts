import type { AgentSessionSearch } from '../../ports/agent-sessions.js';
import type { SessionStore } from '../../ports/session-store.js';
import type { ModelProvider } from '../providers/types.js';

/** `skills.*` from config.yaml as the skills tools honour it. */
export interface SkillsSettings {
  /** `skills.disabled`: names hidden from the index, skills_list and skill_view. */
  disabled: string[];
  /** `skills.external_dirs`, absolute: read-only extra skill roots, after `$HERMES_HOME/skills`. */
  externalDirs: string[];
}

/** The model that answers vision_analyze (`auxiliary.vision`, else the main model). */
export interface VisionModel {
  provider: ModelProvider;
  model: string;
  timeoutMs: number;
  temperature: number;
}

/**
 * Services of the knowledge tools, built per turn by the runtime. A missing part turns its tool
 * into a clear error rather than a crash (e.g. no state.db on Workers).
 */
export interface KnowledgeContext {
  skills: SkillsSettings;
  /** The machine's platform as Node names it (`linux`, `darwin`, `win32`): skills' `platforms`. */
  platform: string;
  /** This server's sessions (searched through the store's own search). */
  sessions: SessionStore | null;
  /** Hermes' own `state.db`, read-only; null where there is none. */
  agentSessions: AgentSessionSearch | null;
  /** Resolves the vision model; throws ProviderConfigError when none can be used. */
  visionModel(): VisionModel;
  /** `auxiliary.vision.download_timeout` in ms, for image URLs. */
  downloadTimeoutMs: number;
  fetch: typeof fetch;
}
