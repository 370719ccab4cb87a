export interface WorkspaceEntry {
  path: string;
  name: string;
}

/** The registered workspaces and the last one used (`workspaces.json`, `last_workspace.txt`). */
export interface WorkspaceStore {
  list(): Promise<WorkspaceEntry[]>;
  /** Replaces the whole list (order is the user's). */
  save(entries: WorkspaceEntry[]): Promise<void>;
  getLast(): Promise<string | null>;
  setLast(path: string): Promise<void>;
}
