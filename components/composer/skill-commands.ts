import { request } from '../api/client.js';

/**
 * The composer's skill commands: `/skills [query]` (a card of matching skills), `/use <skill>`
 * (a chip: that skill goes with the next message) and `/<skill-name>` (the message is sent with
 * that skill invoked, as Hermes' CLI does). Skills come from `GET /api/skills` (the incumbent's
 * shape: `{skills: [{name, description, category, disabled}]}`); the server builds the
 * invocation from the `skill` field of chat/start.
 */

export interface SkillInfo {
  name: string;
  description: string;
  category: string | null;
}

interface SkillRow {
  name?: unknown;
  description?: unknown;
  category?: unknown;
  disabled?: unknown;
  enabled?: unknown;
}

/** Hermes' `/command` form of a skill name: lower case, spaces to hyphens, only word characters and hyphens. */
export function skillSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/ /g, '-')
    .replace(/[^\p{L}\p{N}_-]/gu, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

type Listener = () => void;

class SkillCommandState {
  /** Enabled skills; null until loaded. */
  skills: SkillInfo[] | null = null;
  /** The skill `/use` chose for the next message. */
  forced: string | null = null;
  /** What `/skills` shows, until closed. */
  card: { query: string; skills: SkillInfo[] } | null = null;
  #loading: Promise<SkillInfo[]> | null = null;
  #listeners = new Set<Listener>();

  subscribe(fn: Listener): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  #changed() {
    for (const fn of this.#listeners) fn();
  }

  /** The enabled skills (fetched once; `fresh` asks again). A failed fetch leaves an empty list for now. */
  load(fresh = false): Promise<SkillInfo[]> {
    if (this.#loading && !fresh) return this.#loading;
    this.#loading = request<{ skills?: SkillRow[] }>('GET', '/api/skills').then(
      (r) => {
        this.skills = (r.skills ?? [])
          .filter((s) => typeof s.name === 'string' && s.name && s.disabled !== true && s.enabled !== false)
          .map((s) => ({
            name: String(s.name),
            description: typeof s.description === 'string' ? s.description : '',
            category: typeof s.category === 'string' && s.category ? s.category : null,
          }));
        this.#changed();
        return this.skills;
      },
      () => {
        this.#loading = null;
        return [];
      },
    );
    return this.#loading;
  }

  setForced(name: string | null) {
    this.forced = name;
    this.#changed();
  }

  /** The forced skill for the message being sent now; it applies once. */
  takeForced(): string | null {
    const name = this.forced;
    if (name) this.setForced(null);
    return name;
  }

  showCard(card: SkillCommandState['card']) {
    this.card = card;
    this.#changed();
  }

  /** The skill a typed `/<name>` invokes (`_` and `-` alike), unless a built-in command has that name. */
  skillFor(command: string, builtins: readonly string[]): SkillInfo | null {
    const bare = command.toLowerCase();
    if (builtins.includes(bare)) return null;
    const match = (s: SkillInfo) => skillSlug(s.name);
    return this.skills?.find((s) => match(s) === bare) ?? this.skills?.find((s) => match(s) === bare.replace(/_/g, '-')) ?? null;
  }
}

export const skillCommands = new SkillCommandState();

/**
 * What a message sends: a `/<skill-name> rest` line invokes that skill with the rest as the
 * instruction; otherwise a `/use` choice goes with the text as typed. Null: no skill.
 */
export function skillInvocation(text: string, builtins: readonly string[]): { skill: string; text: string } | null {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const skill = m ? skillCommands.skillFor(m[1]!, builtins) : null;
  if (skill) return { skill: skill.name, text: (m![2] ?? '').trim() };
  const forced = skillCommands.takeForced();
  return forced ? { skill: forced, text } : null;
}
