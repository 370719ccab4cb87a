/**
 * Finding the files an answer points at. Hermes Agent marks a file to deliver with a `MEDIA:<path>`
 * tag (its TTS, image and screenshot tools return one); models also quote the path or wrap it in
 * emphasis, and paths may hold spaces when they end in a known extension (Hermes' own tag scanner
 * accepts the same shapes). Markdown links and images to local files are the other way.
 */

/** Extensions after which a path with spaces is taken to end (longest first, so `jpeg` beats `jpg`). */
const EXTENSIONS = [
  'png',
  'jpeg',
  'jpg',
  'gif',
  'webp',
  'avif',
  'bmp',
  'ico',
  'svg',
  'mp3',
  'wav',
  'ogg',
  'oga',
  'opus',
  'm4a',
  'aac',
  'flac',
  'mp4',
  'm4v',
  'webm',
  'mov',
  'ogv',
  'mkv',
  'avi',
  'pdf',
  'csv',
  'tsv',
  'html',
  'htm',
  'txt',
  'md',
  'json',
  'zip',
  'docx',
  'xlsx',
  'pptx',
].sort((a, b) => b.length - a.length);

/** What may follow a path: whitespace, closing quotes/brackets, punctuation, or a sentence's full stop. */
const END = String.raw`(?=[\s\`"'*_,;:)\]}]|\.(?:\s|$)|$)`;

/**
 * Anchored at the tag: optional spaces after the colon, then a quoted path, a path with spaces that
 * ends in a known extension, or the incumbent's form (anything up to whitespace, `)` or `]`).
 */
export const MEDIA_TAG_RE = new RegExp(
  String.raw`^MEDIA:[ \t]*(?<path>\`[^\`\n]+\`|"[^"\n]+"|'[^'\n]+'|\S+?(?:[ \t]+\S+?)*?\.(?:${EXTENSIONS.join('|')})${END}|[^\s)\]]+)`,
  'i',
);

/** The path inside a tag: outer quotes off, stray quotes and trailing punctuation trimmed (as Hermes does). */
export function cleanTagPath(raw: string): string {
  let p = raw.trim();
  if (p.length >= 2 && p[0] === p[p.length - 1] && '`"\''.includes(p[0]!)) p = p.slice(1, -1).trim();
  return p.replace(/^[`"']+/, '').replace(/[`"',.;:)}\]]+$/, '');
}

/** `{path, length}` for a `MEDIA:` tag at the start of `src`, or null. */
export function matchMediaTag(src: string): { path: string; length: number } | null {
  const m = MEDIA_TAG_RE.exec(src);
  if (!m?.groups?.path) return null;
  const path = cleanTagPath(m.groups.path);
  return path ? { path, length: m[0].length } : null;
}

/** Raster `data:` images the page may show directly (the app's CSP allows `data:` images). */
const DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp|avif);base64,[a-z0-9+/=]+$/i;

export type MediaRef = { kind: 'local'; path: string } | { kind: 'data'; src: string } | { kind: 'remote'; href: string };

/**
 * What a tag's or link's target is: a local file (absolute, `~/…`, relative, or a `file://` URL),
 * a safe inline image, a web address, or nothing we render (other schemes, anchors).
 */
export function classifyRef(target: string): MediaRef | null {
  const t = target.trim();
  if (!t) return null;
  if (/^data:/i.test(t)) return DATA_IMAGE.test(t) && t.length <= 2 * 1024 * 1024 ? { kind: 'data', src: t } : null;
  if (/^https?:\/\//i.test(t)) return { kind: 'remote', href: t };
  if (/^file:\/\//i.test(t)) {
    const rest = t.replace(/^file:\/\/(?:localhost)?/i, '');
    return rest.startsWith('/') ? { kind: 'local', path: decodeSafely(rest) } : null;
  }
  // Any other scheme (mailto:, javascript:, C: drive letters aside), anchors and queries are not files.
  if (/^[a-z][a-z\d+.-]*:/i.test(t) && !/^[a-z]:[\\/]/i.test(t)) return null;
  if (t.startsWith('#') || t.startsWith('?') || t.startsWith('//')) return null;
  return { kind: 'local', path: t };
}

/** Markdown link targets arrive percent-encoded when they hold spaces. */
export function decodeSafely(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * While an answer streams, a tag on its last line may still be growing (`MEDIA:/tmp/ch` before
 * `art.png`): that tail is held back until a line break or the end of the answer settles it, so
 * no element asks for a half-written path.
 */
export function holdOpenMediaTail(text: string): string {
  const at = text.lastIndexOf('MEDIA:');
  if (at < 0 || text.indexOf('\n', at) >= 0) return text;
  return text.slice(0, at);
}
