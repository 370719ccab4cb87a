import type { Message } from '../../shared/session.js';
import { attachmentRefs } from '../builtin/attachment-content.js';

/**
 * A user message's attachments as Hermes gets them through its API server: named by path
 * (images with Hermes' own `[Image attached at: …]` hint), since Hermes runs on this machine
 * and its tools (vision_analyze, read_file) open the files there. No bytes travel: the runs API
 * takes a text input, and the path keeps both API paths alike.
 */
export function withAttachmentNote(m: Message): Message {
  const refs = attachmentRefs(m);
  if (m.role !== 'user' || !refs.length || typeof m.content !== 'string') return m;
  const lines = refs.map((ref) => (ref.isImage ? `[Image attached at: ${ref.path}]` : `[Attached file: ${ref.name} at ${ref.path}]`));
  return { ...m, content: [m.content.trim(), lines.join('\n')].filter(Boolean).join('\n\n') };
}
