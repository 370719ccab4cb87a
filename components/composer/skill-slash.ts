import { msg, str } from '@lit/localize';
import type { CommandContext, SlashCommand, SlashItem } from './slash-commands.js';
import { type SkillInfo, skillCommands, skillSlug } from './skill-commands.js';

// The `/` menu's skill rows and the /skills and /use commands: loaded with the slash commands,
// when the first `/` is typed (skill-commands.ts keeps the state the composer needs before that).

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
