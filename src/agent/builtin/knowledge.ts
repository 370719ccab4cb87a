import type { AgentSessionSearch } from '../../ports/agent-sessions.js';
import type { SessionStore } from '../../ports/session-store.js';
import type { AgentConfig } from '../config.js';
import { ProviderConfigError, resolveProvider } from '../providers/resolve.js';
import type { ModelProvider } from '../providers/types.js';
import type { KnowledgeContext, SkillsSettings, VisionModel } from '../tools/knowledge-context.js';
import { joinPath } from '../tools/paths.js';
import { skillsIndex } from '../tools/skills-scan.js';
import type { ToolHost } from '../tools/types.js';

/** `skills.external_dirs` as Hermes resolves them: `~` is home, a relative path hangs off `$HERMES_HOME`. */
export function skillsSettings(config: AgentConfig, hermesHome: string, homeDir: string): SkillsSettings {
  const externalDirs = config.skills.externalDirs.map((d) =>
    d === '~' ? homeDir : d.startsWith('~/') ? joinPath(homeDir, d.slice(2)) : d.startsWith('/') ? joinPath('/', d) : joinPath(hermesHome, d),
  );
  return { disabled: config.skills.disabled, externalDirs: [...new Set(externalDirs)] };
}

/**
 * The model vision_analyze asks. `auxiliary.vision.base_url` names an OpenAI-compatible (or
 * Anthropic) endpoint; a `provider` other than `auto`/`main` one of the known providers or a
 * custom_providers entry; otherwise the turn's own provider. The model is
 * `auxiliary.vision.model`, else the main model where the provider is the main one.
 */
export function resolveVisionModel(config: AgentConfig, main: { provider: ModelProvider; model: string }, fetchImpl?: typeof fetch): VisionModel {
  const aux = config.auxiliaryVision;
  const common = { timeoutMs: Math.max(1, aux.timeoutSeconds) * 1000, temperature: aux.temperature };
  const explicit = aux.provider && aux.provider !== 'auto' && aux.provider !== 'main' ? aux.provider : null;
  if (!aux.baseUrl && !explicit) return { provider: main.provider, model: aux.model ?? main.model, ...common };
  const model = aux.model ?? (aux.baseUrl ? main.model : null);
  if (!model)
    throw new ProviderConfigError(
      `auxiliary.vision.provider is "${explicit}" but auxiliary.vision.model is not set: name a vision-capable model of that provider.`,
    );
  const routed: AgentConfig = {
    ...config,
    model: {
      ...config.model,
      default: model,
      provider: aux.baseUrl ? (explicit ?? 'custom') : explicit,
      baseUrl: aux.baseUrl,
      apiKey: aux.apiKey,
      apiMode: null,
      contextLength: null,
    },
  };
  const resolved = resolveProvider(routed, null, fetchImpl);
  return { provider: resolved.provider, model: resolved.model, ...common };
}

export interface KnowledgeInput {
  config: AgentConfig;
  hermesHome: string;
  host: ToolHost | null;
  main: { provider: ModelProvider; model: string };
  sessions: SessionStore | null;
  agentSessions: AgentSessionSearch | null;
  platform: string;
  fetch?: typeof fetch;
}

export function knowledgeContext(input: KnowledgeInput): KnowledgeContext {
  const doFetch = input.fetch ?? ((url, init) => fetch(url, init));
  return {
    skills: skillsSettings(input.config, input.hermesHome, input.host?.homeDir ?? '/'),
    platform: input.platform,
    sessions: input.sessions,
    agentSessions: input.agentSessions,
    visionModel: () => resolveVisionModel(input.config, input.main, input.fetch),
    downloadTimeoutMs: Math.max(1, input.config.auxiliaryVision.downloadTimeoutSeconds) * 1000,
    fetch: doFetch,
  };
}

/** Tools that need a host with a directory walk (the skills tree). */
const SKILL_TOOLS = new Set(['skills_list', 'skill_view', 'skill_manage']);

export function knowledgeToolUsable(name: string, host: ToolHost | null): boolean {
  return !SKILL_TOOLS.has(name) || !!host?.walkFiles;
}

/** The skills index for the system prompt, when a skills tool is offered (as Hermes includes it). */
export async function skillsPromptBlock(input: {
  host: ToolHost | null;
  knowledge: KnowledgeContext;
  hermesHome: string;
  toolNames: string[];
}): Promise<string> {
  if (!input.host?.walkFiles || !input.toolNames.some((t) => SKILL_TOOLS.has(t))) return '';
  try {
    return await skillsIndex(input.host, {
      hermesHome: input.hermesHome,
      settings: input.knowledge.skills,
      platform: input.knowledge.platform,
      tools: input.toolNames,
    });
  } catch {
    // An unreadable skills tree costs the index, never the turn.
    return '';
  }
}
