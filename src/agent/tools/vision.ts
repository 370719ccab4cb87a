import type { ChatMessage } from '../messages.js';
import { errorMessage, str } from './args.js';
import { resolveToolPath } from './paths.js';
import type { KnowledgeContext } from './knowledge-context.js';
import type { Tool, ToolContext } from './types.js';

/** Downloads stop here: an attacker-hosted "image" must not fill memory. */
const MAX_DOWNLOAD_BYTES = 50 * 1024 * 1024;
/** No provider accepts a bigger image payload (base64 characters). */
const MAX_BASE64_CHARS = 20 * 1024 * 1024;

const result = (value: Record<string, unknown>) => JSON.stringify(value, null, 2);

/** The image type from its first bytes (what providers check), else from the name; null when not an image. */
export function sniffImageType(bytes: Uint8Array, name = ''): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  if (starts(0x42, 0x4d)) return 'image/bmp';
  const ext = name.toLowerCase().split(/[?#]/)[0]!.split('.').pop() ?? '';
  const byExt: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', bmp: 'image/bmp' };
  return byExt[ext] ?? null;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

async function download(url: string, k: KnowledgeContext, signal: AbortSignal): Promise<{ bytes: Uint8Array; type: string | null }> {
  const response = await k.fetch(url, {
    headers: { Accept: 'image/*,*/*;q=0.8' },
    signal: AbortSignal.any([signal, AbortSignal.timeout(k.downloadTimeoutMs)]),
  });
  if (!response.ok || !response.body) throw new Error(`downloading the image failed: HTTP ${response.status}`);
  const declared = Number(response.headers.get('content-length') ?? '');
  if (declared > MAX_DOWNLOAD_BYTES) throw new Error(`Image too large (${declared} bytes, max ${MAX_DOWNLOAD_BYTES})`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_DOWNLOAD_BYTES) {
      await reader.cancel();
      throw new Error(`Image too large (over ${MAX_DOWNLOAD_BYTES} bytes)`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { bytes, type: response.headers.get('content-type')?.split(';')[0]?.trim() || null };
}

/** The image as a `data:` URL: given as one, downloaded from http(s), or read from a local path. */
async function imageDataUrl(source: string, ctx: ToolContext, k: KnowledgeContext): Promise<string> {
  if (/^data:image\/[\w.+-]+;base64,/i.test(source)) return source;
  let bytes: Uint8Array | null;
  let declared: string | null = null;
  if (/^https?:\/\//i.test(source)) {
    ({ bytes, type: declared } = await download(source, k, ctx.signal));
  } else {
    const path = resolveToolPath(source.replace(/^file:\/\//, ''), ctx.workspace, ctx.host.homeDir);
    if (!ctx.host.readBytes) throw new Error('local files cannot be read on this server; give an http(s) or data: URL');
    bytes = await ctx.host.readBytes(path);
    if (!bytes) throw new Error(`Invalid image source: ${path} does not exist. Give an http(s) URL, a data: URL or an existing local file`);
  }
  const type = sniffImageType(bytes, source) ?? (declared?.startsWith('image/') ? declared : null);
  if (!type) throw new Error('the file is not an image this tool can send (PNG, JPEG, GIF, WebP or BMP)');
  const url = `data:${type};base64,${base64(bytes)}`;
  if (url.length > MAX_BASE64_CHARS) {
    throw new Error(
      `Image too large for the vision API: ${(url.length / (1024 * 1024)).toFixed(1)} MB as base64 (limit 20 MB). Compress or resize it and retry.`,
    );
  }
  return url;
}

/** Hermes' reading of a vision failure, so the model can tell the user what to fix. */
function explain(err: unknown, model: string | null): string {
  const e = errorMessage(err);
  const low = e.toLowerCase();
  if (['402', 'insufficient', 'payment required', 'credits', 'billing'].some((h) => low.includes(h)))
    return `Insufficient credits or payment required: top up the provider account and try again. Error: ${e}`;
  if (['does not support', 'not support image', 'multimodal', 'image input', 'unrecognized request argument'].some((h) => low.includes(h)))
    return `${model ?? 'The vision model'} does not take images, or the server refused the request. Set auxiliary.vision.model to a vision-capable model. Error: ${e}`;
  if (['invalid_request', 'image_url'].some((h) => low.includes(h)))
    return `The vision API rejected the image (unsupported format, corrupt, or too large). Try a smaller JPEG or PNG. Error: ${e}`;
  return `There was a problem with the request and the image could not be analyzed. Error: ${e}`;
}

/**
 * Hermes' `vision_analyze` through the auxiliary route: the image (path, URL or data: URL) and
 * the question go to the vision model from `auxiliary.vision` (else the main model) as an
 * OpenAI `image_url` content part (Anthropic: an image block), and its answer comes back.
 */
export const visionAnalyzeTool: Tool = {
  spec: {
    name: 'vision_analyze',
    description:
      'Look at an image and answer a question about it: a vision-capable model describes the image and answers. Use it whenever the user refers to an image (a path, a URL, a screenshot).',
    parameters: {
      type: 'object',
      properties: {
        image_url: { type: 'string', description: 'Image URL (http/https), local file path, or data: URL to load.' },
        question: { type: 'string', description: 'Your question or request about the image.' },
      },
      required: ['image_url', 'question'],
    },
  },
  async run(args, ctx) {
    const k = ctx.knowledge;
    const source = (str(args.image_url) ?? '').trim();
    const question = str(args.question) ?? '';
    if (!source) return result({ success: false, error: 'image_url is required' });
    if (!k) return result({ success: false, error: 'vision_analyze is not available on this server' });
    let model: string | null = null;
    try {
      const vision = k.visionModel();
      model = vision.model;
      const url = await imageDataUrl(source, ctx, k);
      const prompt = `Describe this image completely and explain everything in it, then answer the following question:\n\n${question}`;
      const messages: ChatMessage[] = [
        {
          role: 'user',
          content: [
            { type: 'text', text: prompt },
            { type: 'image_url', image_url: { url } },
          ],
        },
      ];
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(vision.timeoutMs)]);
      let text = '';
      let reasoning = '';
      // A one-off request: a prompt-cache write would cost more than it saves.
      for await (const chunk of vision.provider.stream({ model: vision.model, messages, temperature: vision.temperature, promptCache: false, signal })) {
        if (chunk.type === 'text') text += chunk.text;
        else if (chunk.type === 'reasoning') reasoning += chunk.text;
      }
      // A reasoning model may put its whole answer in the reasoning channel.
      const analysis = text.trim() || reasoning.trim() || 'There was a problem with the request and the image could not be analyzed.';
      return result({ success: true, analysis });
    } catch (err) {
      if (ctx.signal.aborted) return result({ success: false, error: 'Interrupted' });
      return result({ success: false, error: `Error analyzing image: ${errorMessage(err)}`, analysis: explain(err, model) });
    }
  },
};
