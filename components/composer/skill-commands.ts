import { msg, str } from '@lit/localize';
import { request } from '../api/client.js';
import type { CommandContext, SlashCommand, SlashItem } from './slash-commands.js';

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

const matches = (s: SkillInfo, q: string) =>
  !q || s.name.toLowerCase().includes(q) || s.description.toLowerCase().includes(q) || (s.category ?? '').toLowerCase().includes(q);

/** Resolves a typed skill name case-insensitively against the enabled skills. */
async function findSkill(name: string): Promise<SkillInfo | null> {
  const skills = await skillCommands.load(true);
  const want = name.toLowerCase();
  return skills.find((s) => s.name.toLowerCase() === want) ?? skills.find((s) => skillSlug(s.name) === skillSlug(name)) ?? null;
}

export const SKILL_SLASH_COMMANDS: SlashCommand[] = [
  {
    name: 'skills',
    args: '[query]',
    get description() {
      return msg('List the skills (name, description), or those matching a query');
    },
    async run(_ctx: CommandContext, arg: string) {
      const q = arg.toLowerCase();
      const skills = (await skillCommands.load(true)).filter((s) => matches(s, q));
      skillCommands.showCard({ query: arg, skills });
    },
  },
  {
    name: 'use',
    args: '<skill>',
    get description() {
      return msg('Use a skill for the next message');
    },
    async run(ctx: CommandContext, arg: string) {
      if (!arg) {
        ctx.ui.notify(msg('Usage: /use <skill-name> — the agent follows that skill for your next message.'));
        return;
      }
      const skill = await findSkill(arg);
      if (!skill) {
        ctx.ui.notify(msg(str`No skill named “${arg}”. Use /skills to see the available skills.`), 'error');
        return;
      }
      skillCommands.setForced(skill.name);
      skillCommands.showCard(null);
    },
  },
];

/** Menu rows after the built-in commands: each enabled skill as `/<slug>`. */
export function skillSuggestions(typed: string, builtins: readonly string[]): SlashItem[] {
  if (!skillCommands.skills) {
    void skillCommands.load();
    return [];
  }
  const q = typed.toLowerCase();
  const rows = skillCommands.skills
    .map((s) => ({ s, slug: skillSlug(s.name) }))
    .filter(({ slug }) => slug && !builtins.includes(slug))
    .filter(({ s, slug }) => slug.startsWith(q) || (q && (slug.includes(q) || s.description.toLowerCase().includes(q))));
  return rows.map(({ s, slug }) => ({
    label: `/${slug}`,
    hint: msg('[instruction]'),
    description: s.description || msg(str`Invoke the ${s.name} skill`),
    complete: `/${slug} `,
    runnable: true,
  }));
}

/** `/use` names like the skill list: `/use ` lists the enabled skills. */
export function useSuggestions(typed: string): SlashItem[] {
  const q = typed.toLowerCase();
  return (skillCommands.skills ?? [])
    .filter((s) => s.name.toLowerCase().includes(q))
    .map((s) => ({ label: s.name, hint: s.category ?? '', description: s.description, complete: `/use ${s.name}`, runnable: true }));
}

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
