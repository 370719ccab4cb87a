import type { AttachmentBytes } from '../../ports/attachment-store.js';
import type { RunEventPayloads } from '../../shared/run-events.js';
import type { Message } from '../../shared/session.js';
import type { ContentPart } from '../messages.js';
import { sniffImage, sniffText } from '../../shared/file-sniff.js';
import { DEFAULT_IMAGE_INPUT, decideImageInput, type ImageInputConfig, type VisionVerdict } from '../image-input.js';

/** Where the model's copy of an upload comes from (the session's attachment store). */
export interface AttachmentReader {
  read(sessionId: string, path: string, maxBytes: number): Promise<AttachmentBytes | null>;
}

/** The incumbent's native-image ceiling; providers refuse larger payloads anyway. */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
/** A text file is inlined whole when it is at most this big… */
export const TEXT_FILE_MAX_BYTES = 64 * 1024;
/** …and while one message's inlined files stay under this; the rest are named with their path. */
export const TEXT_TOTAL_MAX_BYTES = 192 * 1024;

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Earlier versions stored this suffix in the text itself; the list says it now. */
const LEGACY_MARKER = /\n\n\[Attached files: [^\]]*\]$/;

export interface AttachmentRef {
  path: string;
  name: string;
  /** What the stored list says (set from the file's bytes when the message was sent). */
  isImage: boolean;
}

/** The attachment list of a stored user message (paths as strings, or the upload answer's objects). */
export function attachmentRefs(m: Message): AttachmentRef[] {
  const list = (m as { attachments?: unknown }).attachments;
  if (!Array.isArray(list)) return [];
  const refs: AttachmentRef[] = [];
  for (const a of list) {
    const rec = typeof a === 'string' ? { path: a } : a && typeof a === 'object' ? (a as Record<string, unknown>) : null;
    const path = typeof rec?.path === 'string' ? rec.path : null;
    if (!path) continue;
    const name = [rec?.name, rec?.filename].find((v): v is string => typeof v === 'string' && !!v) ?? path.split(/[\\/]/).pop() ?? path;
    refs.push({ path, name, isImage: rec?.is_image === true });
  }
  return refs;
}

export interface PrepareOptions {
  sessionId: string;
  reader: AttachmentReader | null;
  /** Whether this turn's images go as image parts. */
  vision: VisionVerdict;
  /** vision_analyze is offered: notes say how to look at an image. */
  visionTool: boolean;
}

export interface PreparedTranscript {
  transcript: Message[];
  warnings: Array<RunEventPayloads['warning']>;
}

/**
 * The transcript as the model gets it: each user message with attachments carries them, built
 * now from the attachment store (the stored transcript keeps only the typed text and the list).
 * This turn's images become image parts when the model takes images, else a note; earlier
 * turns' images are named by path only (Hermes keeps no image bytes in durable history), so the
 * request does not grow with every screenshot ever sent. Text files are inlined up to the caps.
 */
export async function withAttachmentContent(transcript: readonly Message[], o: PrepareOptions): Promise<PreparedTranscript> {
  const warnings: PreparedTranscript['warnings'] = [];
  let current = -1;
  for (let i = transcript.length - 1; i >= 0; i--) {
    if (transcript[i]!.role === 'user') {
      current = i;
      break;
    }
  }
  const out = [...transcript];
  for (let i = 0; i < out.length; i++) {
    const m = out[i]!;
    if (m.role !== 'user' || typeof m.content !== 'string') continue;
    const refs = attachmentRefs(m);
    if (!refs.length) continue;
    const built = await buildContent(m.content.replace(LEGACY_MARKER, ''), refs, i === current, o);
    warnings.push(...built.warnings);
    out[i] = { ...m, content: built.content };
  }
  return { transcript: out, warnings };
}

async function buildContent(
  typed: string,
  refs: AttachmentRef[],
  current: boolean,
  o: PrepareOptions,
): Promise<{ content: string | ContentPart[]; warnings: PreparedTranscript['warnings'] }> {
  const notes: string[] = [];
  const images: ContentPart[] = [];
  const warnings: PreparedTranscript['warnings'] = [];
  let inlined = 0;
  const look = (path: string) => (o.visionTool ? ` To look at it, call vision_analyze with image_url: ${path}` : '');
  for (const ref of refs) {
    // Images of this turn are read whole; anything else only as far as a text file may be inlined.
    const found = o.reader ? await o.reader.read(o.sessionId, ref.path, current ? IMAGE_MAX_BYTES : TEXT_FILE_MAX_BYTES) : null;
    if (!found) {
      notes.push(`[Attached file: ${ref.name} at ${ref.path} (not readable here; use your file tools if you need it)]`);
      continue;
    }
    const size = formatSize(found.size);
    const bytes = found.bytes;
    const image = sniffImage(found.head);
    if (image) {
      if (!current) notes.push(`[Image attached at: ${ref.path}] (shown with that earlier message, not repeated here.${look(ref.path)})`);
      else if (!bytes) {
        notes.push(`[Image attached: ${ref.name} (${size}) at ${ref.path}; too large to send (limit ${formatSize(IMAGE_MAX_BYTES)}).${look(ref.path)}]`);
        warnings.push({ type: 'attachment_too_large', message: `${ref.name} is larger than ${formatSize(IMAGE_MAX_BYTES)} and was not sent as an image.` });
      } else if (o.vision.mode === 'native') {
        notes.push(`[Image attached at: ${ref.path}]`);
        images.push({ type: 'image_url', image_url: { url: `data:${image};base64,${base64(bytes)}` } });
      } else {
        notes.push(
          `[Image attached: ${ref.name} (${size}, ${image}) at ${ref.path}. The model in use does not take images, so it is not shown.${look(ref.path)}]`,
        );
        warnings.push({
          type: 'image_input_unsupported',
          message: `${ref.name} was not sent as an image: ${o.vision.reason ?? 'the model does not take images'}. The model was told its name, size and path.`,
        });
      }
      continue;
    }
    const textBody = bytes && found.size <= TEXT_FILE_MAX_BYTES ? sniffText(bytes) : null;
    if (textBody !== null && inlined + found.size <= TEXT_TOTAL_MAX_BYTES) {
      inlined += found.size;
      notes.push(`--- Attached file: ${ref.name} (${size}, ${ref.path}) ---\n${textBody}\n--- End of ${ref.name} ---`);
    } else if (textBody !== null || !bytes || found.size > TEXT_FILE_MAX_BYTES) {
      notes.push(`[Attached file: ${ref.name} (${size}) at ${ref.path}; too large to include here, read it with your file tools]`);
    } else {
      notes.push(`[Attached file: ${ref.name} (${size}) at ${ref.path}; not text: use your tools to inspect it]`);
    }
  }
  const text = [typed.trim() || (images.length ? 'What do you see in this image?' : ''), notes.join('\n')].filter(Boolean).join('\n\n');
  return { content: images.length ? [{ type: 'text', text }, ...images] : text, warnings };
}

/** This turn's transcript for the model, and the quiet warnings to show (one call per turn). */
export async function turnTranscript(
  transcript: readonly Message[],
  o: {
    sessionId: string;
    reader: AttachmentReader | null;
    imageInput: ImageInputConfig | undefined;
    provider: string;
    model: string;
    toolNames: string[];
    /** What the model catalog's lists say about the model taking images. */
    catalogVision: () => Promise<boolean | null>;
  },
): Promise<PreparedTranscript> {
  if (!transcript.some((m) => m.role === 'user' && attachmentRefs(m).length)) return { transcript: [...transcript], warnings: [] };
  return withAttachmentContent(transcript, {
    sessionId: o.sessionId,
    reader: o.reader,
    vision: decideImageInput(o.imageInput ?? DEFAULT_IMAGE_INPUT, o.provider, o.model, await o.catalogVision().catch(() => null)),
    visionTool: o.toolNames.includes('vision_analyze'),
  });
}
