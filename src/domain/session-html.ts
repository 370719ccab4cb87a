import { Marked, type Tokens } from 'marked';
import { directionOf, type LocaleCode } from '../shared/locales.js';
import { fillText, pageTexts, type PageTexts } from '../shared/page-texts.js';
import type { Session } from '../shared/session.js';
import { messageText } from './session-rows.js';

/**
 * `GET /api/session/export?format=html`: one self-contained file a person can open anywhere or
 * send on. No script, no remote load: raw HTML in messages is shown as text, links keep only
 * web and mail addresses, images become links, and a CSP meta tag forbids everything but the
 * inline style, so a hostile transcript cannot run in the reader's browser. Its own words come
 * from src/shared/page-texts.ts in the caller's language (`lang`/`dir` on <html>, dates through
 * Intl); the conversation's text keeps its own direction (`dir="auto"`).
 */
export type ExportTheme = 'light' | 'dark' | 'system';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const SAFE_HREF = /^(https?:|mailto:|#)/i;

/** An image the page may show itself: a raster data: URL (a share inlines small local images so). */
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/;
const DATA_IMAGE_MD = /!\[([^\]\n]*)\]\((data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+)\)/g;

const img = (src: string, label: string) => `<img src="${escapeHtml(src)}" alt="${escapeHtml(label)}" loading="lazy">`;

/** `images`: data: images render as pictures (the page's CSP allows them); otherwise every image becomes a link. */
function makeMarked(images: boolean): Marked {
  const m = new Marked({ gfm: true, breaks: false, async: false });
  m.use({
    renderer: {
      html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
      link({ href, text, tokens }: Tokens.Link): string {
        const label = tokens ? this.parser.parseInline(tokens) : escapeHtml(text);
        return SAFE_HREF.test(href) ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer">${label}</a>` : label;
      },
      image: ({ href, text }: Tokens.Image) => {
        if (images && DATA_IMAGE.test(href)) return img(href, text);
        return SAFE_HREF.test(href) ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer">${escapeHtml(text || href)}</a>` : escapeHtml(text || href);
      },
    },
  });
  return m;
}

const markedPlain = makeMarked(false);
const markedImages = makeMarked(true);
const markdown = (text: string, images: boolean) => (images ? markedImages : markedPlain).parse(text) as string;

/** A user bubble is plain text; with `images`, its data: images come out as pictures after it. */
function userBody(text: string, images: boolean): { text: string; pictures: string } {
  if (!images) return { text: escapeHtml(text), pictures: '' };
  const pictures: string[] = [];
  const rest = text.replace(DATA_IMAGE_MD, (_all, label: string, src: string) => {
    pictures.push(img(src, label));
    return '';
  });
  return { text: escapeHtml(rest.replace(/\n{3,}/g, '\n\n').trim()), pictures: pictures.join('') };
}

/** What the caller changes about the page: a public share is noindex, shows its images and says what it is. */
export interface HtmlOptions {
  theme?: ExportTheme;
  noindex?: boolean;
  images?: boolean;
  /** One line under the title (escaped here), already in `locale`. */
  note?: string;
  /** The page's language (English when not given). */
  locale?: LocaleCode;
}

/** A page text as HTML: the text escaped, the values (already HTML) in place. */
type Say = (key: keyof PageTexts, values?: Record<string, string>) => string;
const sayer =
  (texts: PageTexts): Say =>
  (key, values) =>
    fillText(texts[key], values, escapeHtml);

/** A value inside a sentence (a model id, a path, a name) is set apart, so it keeps its own direction. */
const bdi = (s: string) => `<bdi>${escapeHtml(s)}</bdi>`;

const PALETTES = {
  dark: {
    bg: '#0a0908',
    fg: '#eae0d5',
    muted: '#a39b92',
    panel: '#22333b',
    border: '#3b4a50',
    accent: '#c6ac8f',
    bubble: '#c6ac8f',
    bubbleFg: '#0a0908',
    code: '#11100e',
  },
  light: {
    bg: '#eae0d5',
    fg: '#2a2623',
    muted: '#6b625a',
    panel: '#f4eee7',
    border: '#d4c6b6',
    accent: '#735535',
    bubble: '#c6ac8f',
    bubbleFg: '#0a0908',
    code: '#efe6dc',
  },
};

function vars(p: (typeof PALETTES)['dark']): string {
  return `--bg:${p.bg};--fg:${p.fg};--muted:${p.muted};--panel:${p.panel};--border:${p.border};--accent:${p.accent};--bubble:${p.bubble};--bubble-fg:${p.bubbleFg};--code:${p.code};`;
}

function styles(theme: ExportTheme): string {
  const base =
    theme === 'system'
      ? `:root{${vars(PALETTES.dark)}}@media (prefers-color-scheme: light){:root{${vars(PALETTES.light)}}}`
      : `:root{${vars(PALETTES[theme])}}`;
  return `${base}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.6 Georgia,'Times New Roman',serif}
main{max-width:760px;margin:0 auto;padding:32px 20px 64px}
header{border-bottom:1px solid var(--border);margin-bottom:24px;padding-bottom:12px}
h1{font-size:22px;font-weight:500;margin:0 0 6px}
.meta{color:var(--muted);font:12px/1.5 -apple-system,'Segoe UI',system-ui,sans-serif}
.msg{margin:18px 0}
/* Logical sides only, so a right-to-left page mirrors (flex-end is the inline end). */
.user{display:flex;justify-content:flex-end}
.user .bubble{background:var(--bubble);color:var(--bubble-fg);border-radius:14px;padding:8px 14px;max-width:85%;white-space:pre-wrap;font-family:-apple-system,'Segoe UI',system-ui,sans-serif;font-size:14px}
.attachments{color:var(--muted);font:12px -apple-system,'Segoe UI',system-ui,sans-serif;margin-top:4px;text-align:end}
details{border:1px solid var(--border);border-radius:8px;padding:6px 10px;margin:8px 0;font:12px/1.5 -apple-system,'Segoe UI',system-ui,sans-serif;color:var(--muted)}
summary{cursor:pointer}
pre{direction:ltr;text-align:start;background:var(--code);border:1px solid var(--border);border-radius:8px;padding:10px;overflow:auto;font:12.5px/1.5 'SF Mono',ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap}
code{direction:ltr;unicode-bidi:isolate;font-family:'SF Mono',ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
a{color:var(--accent)}
table{border-collapse:collapse}td,th{border:1px solid var(--border);padding:4px 8px}
.divider{color:var(--muted);text-align:center;font:12px -apple-system,'Segoe UI',system-ui,sans-serif;margin:24px 0}
.error{color:#f87171}
img{max-width:100%;height:auto;border-radius:8px;border:1px solid var(--border)}
.pictures{gap:8px}.pictures img{max-width:min(320px,85%)}`;
}

function toolCallsOf(m: Session['messages'][number]): Array<{ name: string; args: string }> {
  if (!Array.isArray(m.tool_calls)) return [];
  return (m.tool_calls as Array<{ function?: { name?: unknown; arguments?: unknown } }>).map((c) => ({
    name: typeof c.function?.name === 'string' ? c.function.name : 'tool',
    args: typeof c.function?.arguments === 'string' ? c.function.arguments : '',
  }));
}

function messageHtml(m: Session['messages'][number], index: number, session: Session, images: boolean, say: Say): string {
  const text = messageText(m);
  const parts: string[] = [];
  if (session.compression_anchor_visible_idx === index) parts.push(`<div class="divider">${say('compressed')}</div>`);
  if (m.role === 'user') {
    const files = Array.isArray(m.attachments) ? (m.attachments as Array<{ path?: unknown; name?: unknown }>) : [];
    const typed = files.length ? text.replace(/\n\n\[Attached files: [^\]]*\]$/, '') : text;
    const body = userBody(typed, images);
    if (body.text) parts.push(`<div class="msg user"><div class="bubble" dir="auto">${body.text}</div></div>`);
    if (body.pictures) parts.push(`<div class="msg user pictures">${body.pictures}</div>`);
    if (files.length) {
      const names = files
        .map((f) =>
          String(f.name ?? f.path ?? '')
            .split(/[\\/]/)
            .pop(),
        )
        .filter(Boolean);
      parts.push(`<div class="attachments">${say('attached', { names: bdi(names.join(', ')) })}</div>`);
    }
  } else if (m.role === 'assistant') {
    if (typeof m.reasoning === 'string' && m.reasoning.trim()) {
      parts.push(`<details><summary>${say('thinking')}</summary><pre>${escapeHtml(m.reasoning)}</pre></details>`);
    }
    if (text.trim()) parts.push(`<div class="msg assistant${m._error === true ? ' error' : ''}" dir="auto">${markdown(text, images)}</div>`);
    for (const call of toolCallsOf(m)) {
      parts.push(`<details><summary>${say('tool', { name: bdi(call.name) })}</summary><pre>${escapeHtml(call.args)}</pre></details>`);
    }
  } else if (m.role === 'tool') {
    const name = typeof m.name === 'string' ? m.name : 'tool';
    parts.push(`<details><summary>${say('result', { name: bdi(name) })}</summary><pre>${escapeHtml(text)}</pre></details>`);
  }
  return parts.join('\n');
}

/** The whole file; `session` is already redacted by the caller (an export leaves the server). */
export function toHtml(session: Session, themeOrOptions: ExportTheme | HtmlOptions = 'system'): string {
  const o: HtmlOptions = typeof themeOrOptions === 'string' ? { theme: themeOrOptions } : themeOrOptions;
  const images = o.images === true;
  const locale = o.locale ?? 'en';
  const say = sayer(pageTexts(locale));
  const title = session.title || pageTexts(locale).untitled;
  const started = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(session.created_at * 1000);
  const count = session.messages.length;
  const meta = [
    session.model ? say('model', { model: bdi(String(session.model)) }) : '',
    session.workspace ? say('workspace', { workspace: bdi(String(session.workspace)) }) : '',
    say('started', { time: escapeHtml(started) }),
    say(count === 1 ? 'message' : 'messages', { count: escapeHtml(new Intl.NumberFormat(locale).format(count)) }),
    o.note ? escapeHtml(o.note) : '',
  ].filter(Boolean);
  return `<!doctype html>
<html lang="${locale}" dir="${directionOf(locale)}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'${images ? '; img-src data:' : ''}">
<meta name="viewport" content="width=device-width, initial-scale=1">${o.noindex ? '\n<meta name="robots" content="noindex, nofollow">\n<meta name="referrer" content="no-referrer">' : ''}
<meta name="generator" content="Hermes WebUI">
<title>${escapeHtml(title)}</title>
<style>${styles(o.theme ?? 'system')}</style></head>
<body><main>
<header><h1 dir="auto">${escapeHtml(title)}</h1><div class="meta">${meta.join(' · ')}</div></header>
${session.messages.map((m, i) => messageHtml(m, i, session, images, say)).join('\n')}
</main></body></html>
`;
}
