/**
 * HTML → readable Markdown-ish text for web_extract's built-in fetcher: headings, paragraphs,
 * list items, links, code blocks and table rows survive; scripts, styles, navigation chrome and
 * markup do not. Regex-based and dependency-free (runs on any runtime); pages that need a browser
 * to render are the hosted backends' job.
 */

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  copy: '©',
  reg: '®',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const inline = (html: string): string =>
  decodeEntities(html.replace(/<[^>]+>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();

export function htmlTitle(html: string): string {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  return m ? inline(m[1] ?? '') : '';
}

export function htmlToText(html: string, baseUrl?: string): string {
  let t = html;
  // Nothing in these is page text.
  t = t.replace(/<!--[\s\S]*?-->/g, ' ');
  t = t.replace(/<(script|style|noscript|svg|canvas|template|head|iframe|object)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ');
  t = t.replace(/<(nav|footer|aside|form)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ');
  // Code blocks keep their line breaks; everything else has its whitespace collapsed below.
  const blocks: string[] = [];
  t = t.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre\s*>/gi, (_, body: string) => {
    blocks.push(decodeEntities(body.replace(/<[^>]+>/g, '')).replace(/\n+$/, ''));
    return `\n\u0000${blocks.length - 1}\u0000\n`;
  });
  t = t.replace(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1\s*>/gi, (_, n: string, body: string) => `\n\n${'#'.repeat(Number(n))} ${inline(body)}\n\n`);
  t = t.replace(/<a\b[^>]*?href\s*=\s*("([^"]*)"|'([^']*)')[^>]*>([\s\S]*?)<\/a\s*>/gi, (_, _q, dq: string, sq: string, body: string) => {
    const label = inline(body);
    const href = absolute(decodeEntities(dq ?? sq ?? ''), baseUrl);
    if (!label) return '';
    return href && !href.startsWith('javascript:') && !href.startsWith('#') ? `[${label}](${href})` : label;
  });
  t = t.replace(/<li\b[^>]*>/gi, '\n- ');
  t = t.replace(/<\/(td|th)\s*>/gi, ' | ');
  t = t.replace(/<(br|hr)\b[^>]*>/gi, '\n');
  t = t.replace(/<\/?(p|div|section|article|main|header|ul|ol|table|tr|blockquote|dl|dt|dd|figure|figcaption)\b[^>]*>/gi, '\n\n');
  t = t.replace(/<\/?(strong|b)\b[^>]*>/gi, '**');
  t = t.replace(/<code\b[^>]*>([\s\S]*?)<\/code\s*>/gi, (_, body: string) => `\`${inline(body)}\``);
  t = t.replace(/<[^>]+>/g, ' ');
  t = decodeEntities(t);
  const lines = t.split('\n').map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim());
  let out = lines
    .join('\n')
    .replace(/\*\*\s*\*\*/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  out = out.replace(/\u0000(\d+)\u0000/g, (_, i: string) => `\`\`\`\n${blocks[Number(i)] ?? ''}\n\`\`\``);
  return out;
}

function absolute(href: string, baseUrl?: string): string {
  if (!baseUrl) return href;
  try {
    return new URL(href, baseUrl).toString();
  } catch {
    return href;
  }
}
