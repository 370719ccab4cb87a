/**
 * Path completion for "Add folder…" (GET /api/workspaces/suggest): directories only, and only
 * under trusted roots — the user's home, the default workspace and the saved workspaces — so a
 * typed system prefix yields nothing rather than a listing.
 */
export interface FolderSuggestions {
  /**
   * Up to `limit` absolute directory paths (`~/…` when the prefix starts with `~`): the trusted
   * roots the prefix starts, then the children of the folder it names whose names start with
   * its last segment (case-insensitively). Hidden folders only when that segment starts with a
   * dot. An empty prefix lists the roots. Never throws for what a person may type.
   */
  suggest(prefix: string, options: { roots: string[]; limit: number }): Promise<string[]>;
}
