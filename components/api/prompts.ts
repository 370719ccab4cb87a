import { request } from './client.js';
import type { SavedPrompt } from '../../src/ports/saved-prompts.js';

export type { SavedPrompt };

/** Saved prompts of the browser's profile (GET/POST/DELETE /api/prompts, the incumbent's shapes). */
export const promptsApi = {
  list: () => request<{ prompts: SavedPrompt[] }>('GET', '/api/prompts').then((r) => r.prompts),
  save: (text: string, label?: string) =>
    request<{ ok: true; prompt: SavedPrompt }>('POST', '/api/prompts', { text, ...(label ? { label } : {}) }).then((r) => r.prompt),
  remove: (id: string) => request<{ ok: true }>('DELETE', '/api/prompts', { id }),
};
