import { msg } from '@lit/localize';
/**
 * An answer's markdown as something to say: code blocks and tables become a short mention,
 * links keep their words, and the marks (`**`, `#`, `>`, list bullets, backticks) go.
 *
 * @example
 * speakableText('## Done\n\nSee **[the docs](https://x)**.\n\n```js\nx()\n```') // 'Done\n\nSee the docs.\n\n(code block)'
 */
export function speakableText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?(```|$)/g, msg('(code block)'))
    .replace(/^[ \t]*\|.*\|[ \t]*$(\n[ \t]*\|.*\|[ \t]*$)*/gm, msg('(table)'))
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s{0,3}>\s?/gm, '')
    .replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/gm, '')
    .replace(/(\*\*|__|~~)(.+?)\1/g, '$2')
    .replace(/(^|[\s(])[*_]([^*_\n]+)[*_](?=[\s).,!?:;]|$)/gm, '$1$2')
    .replace(/<[^>]+>/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
