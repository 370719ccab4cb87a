import type { RunEventPayloads } from '../../shared/run-events.js';
import type { Message } from '../../shared/session.js';
import { skillUsage } from '../tools/skill-usage.js';
import { viewSkill } from '../tools/skills.js';
import type { ToolContext } from '../tools/types.js';

/**
 * `/<skill-name>` and `/use <skill>`: the user message is stored as typed with a `skill` marker
 * (the skill's name); the model gets Hermes' invocation message instead — the activation note,
 * the skill's content, its directory and supporting files, then the user's instruction — as
 * Hermes' skill_commands builds it. The activation note and the instruction marker are Hermes'
 * exact strings: Hermes recognises an invocation (previews, memory) by them.
 */

export const SKILL_MARKER_KEY = 'skill';

/** The skill a stored user message invoked, if any. */
export function invokedSkill(m: Message): string | null {
  const v = (m as Record<string, unknown>)[SKILL_MARKER_KEY];
  return m.role === 'user' && typeof v === 'string' && v.trim() ? v.trim() : null;
}

const activationNote = (name: string) =>
  `[IMPORTANT: The user has invoked the "${name}" skill, indicating they want you to follow its instructions. The full skill content is loaded below.]`;
const INSTRUCTION_MARKER = 'The user has provided the following instruction alongside the skill invocation: ';
const DIR_NOTE =
  'Paths in this skill such as `scripts/foo.js` or `templates/config.yaml` are relative to that directory: run them with the terminal tool by their absolute path.';

interface LoadedSkill {
  success?: boolean;
  name?: string;
  content?: string;
  path?: string;
  skill_dir?: string | null;
  linked_files?: Record<string, string[]> | null;
}

/** The model's copy of an invocation, or null when the skill cannot be loaded (gone, disabled, other platform). */
export function invocationMessage(loaded: LoadedSkill, instruction: string): string | null {
  if (!loaded.success || typeof loaded.content !== 'string') return null;
  const name = loaded.name ?? '';
  const dir = loaded.skill_dir ?? null;
  const parts = [activationNote(name), '', loaded.content.trim()];
  if (dir) parts.push('', `[Skill directory: ${dir}]`, DIR_NOTE);
  const supporting = Object.values(loaded.linked_files ?? {}).flat();
  if (supporting.length && dir) {
    // skill_view takes the path under the skills root (`category/name`).
    const target = loaded.path?.endsWith('/SKILL.md') ? loaded.path.slice(0, -'/SKILL.md'.length) : name;
    parts.push('', '[This skill has supporting files (paths relative to the skill directory above):]', ...supporting.map((f) => `- ${f}`));
    parts.push(
      `\nLoad any of these with skill_view(name="${target}", file_path="<path>"), or run scripts directly by absolute path (e.g. \`node ${dir}/scripts/foo.js\`).`,
    );
  }
  if (instruction.trim()) parts.push('', `${INSTRUCTION_MARKER}${instruction.trim()}`);
  return parts.join('\n');
}

export interface InvokedTranscript {
  transcript: Message[];
  warnings: Array<RunEventPayloads['warning']>;
}

/**
 * The transcript with every invoked skill expanded for the model (earlier turns too, so the
 * conversation keeps what the model was shown). Only this turn's invocation counts a use and
 * warns when the skill cannot be loaded; the model then gets the typed text alone.
 */
export async function withSkillInvocations(transcript: readonly Message[], ctx: ToolContext): Promise<InvokedTranscript> {
  const warnings: InvokedTranscript['warnings'] = [];
  if (!transcript.some((m) => invokedSkill(m))) return { transcript: [...transcript], warnings };
  let current = -1;
  for (let i = transcript.length - 1; i >= 0; i--) {
    if (transcript[i]!.role === 'user') {
      current = i;
      break;
    }
  }
  const loaded = new Map<string, LoadedSkill>();
  const out = [...transcript];
  for (let i = 0; i < out.length; i++) {
    const m = out[i]!;
    const name = invokedSkill(m);
    if (!name) continue;
    if (!loaded.has(name)) {
      const text = await viewSkill({ name }, ctx, { record: false });
      let parsed: LoadedSkill = {};
      try {
        parsed = JSON.parse(text) as LoadedSkill;
      } catch {
        // Not JSON: treated as not loadable.
      }
      loaded.set(name, parsed);
    }
    const skill = loaded.get(name)!;
    const typed = typeof m.content === 'string' ? m.content : '';
    const built = invocationMessage(skill, typed);
    if (i === current) {
      if (built) await skillUsage.used(ctx.host, ctx.hermesHome, skill.name ?? name);
      else warnings.push({ type: 'skill_unavailable', message: `The skill "${name}" could not be loaded; the message was sent without it.` });
    }
    if (built) out[i] = { ...m, content: built };
  }
  return { transcript: out, warnings };
}
