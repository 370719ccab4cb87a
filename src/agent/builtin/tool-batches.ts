import type { ToolCall } from '../messages.js';
import { resolveToolPath } from '../tools/paths.js';

/**
 * Hermes' batch planning (agent/tool_dispatch_helpers.py): one step's tool calls split into
 * ordered segments, so only calls that cannot disturb each other run at the same time. A call
 * never moves past an earlier one; results keep call order whatever order they finish in.
 */

/** Interactive tools: always a barrier, run alone. */
export const NEVER_PARALLEL_TOOLS: ReadonlySet<string> = new Set(['clarify', 'manage_connections', 'manage_catalog']);

/** Read-only tools with no shared session state: they may run beside anything parallel. */
export const PARALLEL_SAFE_TOOLS: ReadonlySet<string> = new Set([
  'connectors__execute',
  'ha_get_state',
  'ha_list_entities',
  'ha_list_services',
  'image_generate',
  'read_file',
  'search_files',
  'session_search',
  'skill_view',
  'skills_list',
  'vision_analyze',
  'web_extract',
  'web_search',
]);

/** File tools admitted by path: readers may share a subtree; a writer conflicts with any overlap. */
export const PATH_SCOPED_READERS: ReadonlySet<string> = new Set(['read_file', 'search_files']);
export const PATH_SCOPED_WRITERS: ReadonlySet<string> = new Set(['write_file', 'patch']);

export interface BatchSegment {
  /** `parallel` segments have two or more calls; `sequential` ones run one call after another. */
  mode: 'parallel' | 'sequential';
  /** Indexes into the step's calls, ascending. */
  calls: number[];
}

export interface PlanOptions {
  /** Base of relative paths (the session's workspace). */
  cwd: string;
  homeDir: string;
  /**
   * Tools beyond Hermes' list that are known to be safe side by side (an MCP server that opted
   * in to parallel calls). Everything not named anywhere runs in order: the safe default.
   */
  isParallelSafe?: (name: string) => boolean;
}

interface Admission {
  paths: string[];
  writer: boolean;
}

/** V4A patch headers (`*** Update File: x`, `*** Move File: a -> b`): what a patch-mode call touches. */
const V4A_FILE = /^\*\*\*\s*(?:Update|Add|Delete)\s+File:\s*(.+)$/gm;
const V4A_MOVE = /^\*\*\*\s*Move\s+File:\s*(.+?)\s*->\s*(.+)$/gm;

function scopePaths(name: string, args: Record<string, unknown>, options: PlanOptions): string[] {
  let raw: string[];
  if (name === 'patch' && (args.mode ?? 'replace') === 'patch') {
    // The patch body says which files change; a `path` beside it could be a decoy.
    const body = typeof args.patch === 'string' ? args.patch : '';
    raw = [...body.matchAll(V4A_FILE)].map((m) => m[1]!.trim());
    for (const m of body.matchAll(V4A_MOVE)) raw.push(m[1]!.trim(), m[2]!.trim());
  } else if (typeof args.path === 'string' && args.path.trim()) raw = [args.path];
  else raw = name === 'search_files' ? ['.'] : []; // a bare search covers the cwd
  return [...new Set(raw.filter((p) => p.trim()).map((p) => resolveToolPath(p, options.cwd, options.homeDir)))];
}

/** null: a barrier (runs alone, in order); else the paths the call reserves. */
function admit(call: ToolCall, options: PlanOptions): Admission | null {
  const name = call.function.name;
  if (NEVER_PARALLEL_TOOLS.has(name)) return null;
  let args: unknown;
  try {
    args = JSON.parse(call.function.arguments || '{}');
  } catch {
    return null; // it fails at dispatch; in order, like any other call we cannot read
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) return null;
  if (PATH_SCOPED_READERS.has(name) || PATH_SCOPED_WRITERS.has(name)) {
    const paths = scopePaths(name, args as Record<string, unknown>, options);
    return paths.length ? { paths, writer: PATH_SCOPED_WRITERS.has(name) } : null;
  }
  if (PARALLEL_SAFE_TOOLS.has(name) || options.isParallelSafe?.(name)) return { paths: [], writer: false };
  return null;
}

/** Two absolute paths overlap when one is the other or lies below it. */
export function pathsOverlap(a: string, b: string): boolean {
  const pa = a.split('/').filter(Boolean);
  const pb = b.split('/').filter(Boolean);
  const n = Math.min(pa.length, pb.length);
  for (let i = 0; i < n; i++) if (pa[i] !== pb[i]) return false;
  return true;
}

/**
 * Splits a step's calls into segments. A path-scoped call joins the open parallel run unless it
 * overlaps a reservation there and one of the two writes; then the run closes and the call opens
 * the next one. Runs of one call become sequential; adjacent sequential segments merge.
 */
export function planToolBatches(calls: readonly ToolCall[], options: PlanOptions): BatchSegment[] {
  const segments: BatchSegment[] = [];
  let run: number[] = [];
  let reserved: Array<{ path: string; writer: boolean }> = [];

  const sequential = (indexes: number[]) => {
    const last = segments[segments.length - 1];
    if (last?.mode === 'sequential') last.calls.push(...indexes);
    else segments.push({ mode: 'sequential', calls: [...indexes] });
  };
  const closeRun = () => {
    if (run.length >= 2) segments.push({ mode: 'parallel', calls: run });
    else if (run.length) sequential(run);
    run = [];
    reserved = [];
  };

  calls.forEach((call, i) => {
    const admission = admit(call, options);
    if (!admission) {
      closeRun();
      sequential([i]);
      return;
    }
    const conflict = admission.paths.some((p) => reserved.some((r) => (admission.writer || r.writer) && pathsOverlap(p, r.path)));
    if (conflict) closeRun();
    for (const path of admission.paths) reserved.push({ path, writer: admission.writer });
    run.push(i);
  });
  closeRun();
  return segments;
}
