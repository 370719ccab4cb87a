/**
 * `agent.personalities` in config.yaml, read as the Hermes CLI reads it: a name maps to a
 * prompt string, or to `{system_prompt|prompt, description?, tone?, style?}`, whose tone and
 * style become extra lines of the prompt. The chosen one rides along as an ephemeral layer of the
 * system prompt (not stored in the transcript), so switching it never rewrites history.
 */
export interface Personality {
  name: string;
  /** What /personality and the picker show: the `description`, else the prompt's start. */
  description: string;
  prompt: string;
}

const DESCRIPTION_CHARS = 80;

export function parsePersonalities(agent: Record<string, unknown>): Personality[] {
  const raw = agent.personalities;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return [];
  const out: Personality[] = [];
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!name.trim()) continue;
    if (typeof value === 'string') {
      const cut = value.length > DESCRIPTION_CHARS ? `${value.slice(0, DESCRIPTION_CHARS)}...` : value;
      out.push({ name, description: cut, prompt: value });
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      const v = value as Record<string, unknown>;
      const str = (key: string) => (typeof v[key] === 'string' ? (v[key] as string) : '');
      const lines = [str('system_prompt') || str('prompt')];
      if (str('tone')) lines.push(`Tone: ${str('tone')}`);
      if (str('style')) lines.push(`Style: ${str('style')}`);
      out.push({ name, description: str('description'), prompt: lines.filter(Boolean).join('\n') });
    }
  }
  return out;
}

/** The prompt layer for a session's `personality` (empty when unset or no longer in config.yaml). */
export function personalityPrompt(personalities: readonly Personality[] | undefined, name: unknown): string {
  if (typeof name !== 'string' || !name) return '';
  return personalities?.find((p) => p.name === name)?.prompt.trim() ?? '';
}
