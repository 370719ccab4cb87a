/** One saved prompt as the incumbent stores it (`id` 12 hex, `created_at` epoch seconds). */
export interface SavedPrompt {
  id: string;
  label: string;
  text: string;
  created_at: number;
  /** Anything another version wrote is kept. */
  [key: string]: unknown;
}

/**
 * Saved prompts of one Hermes home, kept in `<home>/webui/saved_prompts.json` (the incumbent's
 * file: a JSON list, `indent=2`). `home` is the profile home's absolute path.
 */
export interface SavedPromptStore {
  /** The list as stored; [] when there is no file or it cannot be read (as the incumbent reads it). */
  list(home: string): Promise<SavedPrompt[]>;
  /** Read-modify-write, one at a time per home; returns what was written. */
  change(home: string, edit: (prompts: SavedPrompt[]) => SavedPrompt[]): Promise<SavedPrompt[]>;
}

/** Where the incumbent keeps them, relative to the profile home. */
export const SAVED_PROMPTS_FILE = 'webui/saved_prompts.json';

/** The file's text: what Python's `json.dumps(prompts, ensure_ascii=False, indent=2)` writes. */
export function serializeSavedPrompts(prompts: SavedPrompt[]): string {
  return JSON.stringify(prompts, null, 2);
}

/** A list of objects, else [] (a damaged file reads as empty, as the incumbent's loader does). */
export function parseSavedPrompts(text: string | null): SavedPrompt[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value.filter((p) => p && typeof p === 'object' && !Array.isArray(p)) as SavedPrompt[]) : [];
  } catch {
    return [];
  }
}
