/** SKILL.md text helpers for the panel (no YAML library: the chunk stays small). */

/** The front matter block (without its fences) and the markdown after it. */
export function splitSkill(content: string): { frontmatter: string | null; body: string } {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*\r?\n?/.exec(content);
  return m ? { frontmatter: m[1]!, body: content.slice(m[0].length) } : { frontmatter: null, body: content };
}

/** A YAML scalar for one line of text: plain when that is unambiguous, else double-quoted (JSON is valid YAML). */
const scalar = (text: string) => (/^[\w][\w .,()/+-]*$/.test(text) && !/^(true|false|null|yes|no|on|off|~)$/i.test(text) ? text : JSON.stringify(text));

/** A new skill's SKILL.md as Hermes expects it: front matter with name and description, then the body. */
export function composeSkill(input: { name: string; description: string; body: string }): string {
  const description = input.description.replace(/\s+/g, ' ').trim();
  return `---\nname: ${scalar(input.name)}\ndescription: ${scalar(description)}\n---\n\n${input.body.trim()}\n`;
}

/** The incumbent's normalisation of a typed name (lowercase, spaces as hyphens). */
export const skillName = (typed: string) => typed.trim().toLowerCase().replace(/\s+/g, '-');

export const isMarkdownPath = (path: string) => /\.(md|markdown)$/i.test(path);
