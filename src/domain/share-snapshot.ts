import type { ShareMessage } from '../ports/share-store.js';
import type { Message, Session } from '../shared/session.js';
import { redactSecrets } from '../shared/redact.js';
import { sniffImage } from '../shared/file-sniff.js';
import { bytesToBase64 } from './base64.js';
import { DEFAULT_TITLE, messageText } from './session-rows.js';

/** The incumbent's cap for an image inlined into a share (shares.py `_SHARE_EMBED_MAX_BYTES`). */
export const SHARE_EMBED_MAX_BYTES = 512 * 1024;
export const ATTACHMENT_OMITTED = '*[Local attachment omitted from public share]*';

/** A local path and what replaces it in shared text (`<workspace>`, `<hermes-home>`, `<home>`). */
export interface ScrubPath {
  path: string;
  placeholder: string;
}

/** A local file a message points at: an upload of the session, or a `MEDIA:<path>` reference. */
export interface LocalRef {
  kind: 'attachment' | 'media';
  path: string;
}

export interface SnapshotSources {
  paths: ScrubPath[];
  /** The file's bytes when it may be inlined (inside the session's roots, at most the cap); else null. */
  readImage(ref: LocalRef): Promise<Uint8Array | null>;
}

export interface ShareSnapshot {
  title: string;
  messages: ShareMessage[];
  message_count: number;
}

/** As the incumbent: `MEDIA:` followed by anything but a web address, up to whitespace or a closing bracket. */
const MEDIA_REF = /MEDIA:(?!https?:\/\/)([^\s)\]>]+)/g;
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/;
/** session-html strips the same suffix: the chat turn's list of attached names. */
const ATTACHED_SUFFIX = /\n\n\[Attached files: [^\]]*\]$/;

const baseName = (p: string) => p.split(/[\\/]/).pop() || 'image';
/** Markdown image alt text: no bracket or newline can end it early. */
const alt = (name: string) => name.replace(/[[\]\n\r\\]/g, ' ').trim() || 'image';

/** Every known local path replaced, longest first (the workspace often lies inside the home). */
export function scrubPaths(text: string, paths: readonly ScrubPath[]): string {
  let out = text;
  for (const { path, placeholder } of [...paths].sort((a, b) => b.path.length - a.path.length)) {
    const p = path.replace(/[\\/]+$/, '');
    // A root of a few characters ("/", "/tmp") would eat ordinary prose.
    if (p.length >= 4) out = out.split(p).join(placeholder);
  }
  return out;
}

async function inline(ref: LocalRef, name: string, sources: SnapshotSources): Promise<string> {
  const bytes = await sources.readImage(ref).catch(() => null);
  const mime = bytes && bytes.length <= SHARE_EMBED_MAX_BYTES ? sniffImage(bytes) : null;
  return bytes && mime ? `![${alt(name)}](data:${mime};base64,${bytesToBase64(bytes)})` : ATTACHMENT_OMITTED;
}

/** Scrubbed prose with each `MEDIA:` reference inlined or replaced by the note (paths never reach the output). */
async function withMedia(text: string, sources: SnapshotSources): Promise<string> {
  const parts: string[] = [];
  let last = 0;
  for (const m of text.matchAll(MEDIA_REF)) {
    parts.push(scrubPaths(text.slice(last, m.index), sources.paths));
    parts.push(await inline({ kind: 'media', path: m[1]! }, baseName(m[1]!), sources));
    last = m.index + m[0].length;
  }
  parts.push(scrubPaths(text.slice(last), sources.paths));
  return parts.join('');
}

/** Images sent inline in a message's content list (`image_url` data: URLs), when small enough. */
function contentImages(m: Message): string[] {
  if (!Array.isArray(m.content)) return [];
  const out: string[] = [];
  for (const part of m.content as Array<{ type?: unknown; image_url?: { url?: unknown } | string }>) {
    if (part?.type !== 'image_url') continue;
    const url = typeof part.image_url === 'string' ? part.image_url : part.image_url?.url;
    const small = typeof url === 'string' && url.length <= (SHARE_EMBED_MAX_BYTES * 4) / 3 + 64 && DATA_IMAGE.test(url);
    out.push(small ? `![image](${url})` : ATTACHMENT_OMITTED);
  }
  return out;
}

async function sanitise(m: Message, sources: SnapshotSources): Promise<ShareMessage | null> {
  if (m.role !== 'user' && m.role !== 'assistant') return null;
  const files = m.role === 'user' && Array.isArray(m.attachments) ? (m.attachments as Array<{ path?: unknown; filename?: unknown; name?: unknown }>) : [];
  const typed = files.length ? messageText(m).replace(ATTACHED_SUFFIX, '') : messageText(m);
  // Always masked, whatever api_redact_enabled says: a public link is a hard boundary.
  const blocks = [await withMedia(redactSecrets(typed).trim(), sources)];
  blocks.push(...contentImages(m));
  for (const f of files) {
    const path = typeof f.path === 'string' ? f.path : '';
    const name = String(f.filename ?? f.name ?? baseName(path));
    blocks.push(path ? await inline({ kind: 'attachment', path }, baseName(name), sources) : ATTACHMENT_OMITTED);
  }
  const content = blocks.filter((b) => b.trim()).join('\n\n');
  if (!content) return null;
  return { role: m.role, content, ...(typeof m.timestamp === 'number' ? { timestamp: m.timestamp } : {}) };
}

/**
 * The public copy of a conversation: user and assistant prose only (no tool payloads, reasoning,
 * system prompt or metadata), credentials masked, local paths scrubbed, local images inlined
 * when small and everything else local replaced by a note. Throws when nothing is shareable.
 */
export async function buildShareSnapshot(session: Session, sources: SnapshotSources): Promise<ShareSnapshot> {
  const messages: ShareMessage[] = [];
  for (const m of session.messages) {
    const safe = await sanitise(m, sources);
    if (safe) messages.push(safe);
  }
  const title = scrubPaths(redactSecrets(session.title || DEFAULT_TITLE), sources.paths).trim() || DEFAULT_TITLE;
  return { title, messages, message_count: messages.length };
}
