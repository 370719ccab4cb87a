import type { MarkedExtension, Tokens } from 'marked';
import { mediaKind } from '../../src/shared/media-kind.js';
import { classifyRef, decodeSafely, matchMediaTag } from './media-refs.js';
import '../chat/hermes-media.js';

/** The element media references become; DOMPurify is told to keep it (its data-* attributes pass). */
export const MEDIA_TAG = 'hermes-media';

const escapeAttr = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A placeholder the element fills in; the session and the URL are the element's business, so cached HTML fits any session. */
export function mediaElement(path: string, alt = ''): string {
  return `<${MEDIA_TAG} data-path="${escapeAttr(path)}"${alt ? ` data-alt="${escapeAttr(alt)}"` : ''}></${MEDIA_TAG}>`;
}

/** How a `MEDIA:` target renders: a local file inline, a data image as <img>, a web address as a link. */
function renderTarget(target: string, alt = ''): string | null {
  const ref = classifyRef(target);
  if (!ref) return null;
  if (ref.kind === 'local') return mediaElement(ref.path, alt);
  if (ref.kind === 'data') return `<img class="media-data" src="${escapeAttr(ref.src)}" alt="${escapeAttr(alt || 'image')}">`;
  return `<a href="${escapeAttr(ref.href)}">${escapeAttr(ref.href)}</a>`;
}

/** Links are shown in place only when they name a file a player or <img> can show. */
const INLINE_LINK_KINDS = new Set(['image', 'svg', 'audio', 'video']);

interface MediaToken extends Tokens.Generic {
  type: 'media';
  raw: string;
  path: string;
}

/**
 * `MEDIA:<path>` tags (never inside code: they are inline tokens), markdown images of local files
 * and links to local images, audio and video all become <hermes-media>.
 */
export const mediaExtension: MarkedExtension = {
  extensions: [
    {
      name: 'media',
      level: 'inline',
      start(src: string) {
        const at = src.indexOf('MEDIA:');
        return at < 0 ? undefined : at;
      },
      tokenizer(src: string): MediaToken | undefined {
        const m = matchMediaTag(src);
        return m ? { type: 'media', raw: src.slice(0, m.length), path: m.path } : undefined;
      },
      renderer(token) {
        const t = token as MediaToken;
        return renderTarget(t.path) ?? escapeAttr(t.raw);
      },
    },
  ],
  renderer: {
    image({ href, text }: Tokens.Image) {
      const ref = classifyRef(decodeSafely(href));
      return ref?.kind === 'local' ? mediaElement(ref.path, text) : false;
    },
    link({ href, text }: Tokens.Link) {
      const ref = classifyRef(decodeSafely(href));
      if (ref?.kind !== 'local' || !INLINE_LINK_KINDS.has(mediaKind(ref.path))) return false;
      return mediaElement(ref.path, text);
    },
  },
};
