import { type GuardRoots, readBlockError, writeBlockError } from './file-guards.js';
import { resolveToolPath, toolBaseDir } from './paths.js';
import type { ToolContext } from './types.js';

/** What the call does with the file: patch both reads (its diff shows the text) and writes. */
export type FileAccess = 'read' | 'write' | 'edit';

/** `real`: where `abs` really lands (symlinks followed), which the edit approval judges too. */
export type GuardedPath = { abs: string; real: string; error: null } | { abs: string; real: string; error: string };

export function guardRoots(ctx: ToolContext): GuardRoots {
  return {
    homeDir: ctx.host.homeDir,
    hermesHome: ctx.hermesHome,
    ...(ctx.writeSafeRoots ? { writeSafeRoots: ctx.writeSafeRoots } : {}),
    ...(ctx.configPath ? { configPath: ctx.configPath } : {}),
  };
}

/** Where `abs` really lands (symlinks followed) when the host can tell, else `abs` itself. */
export async function realPathOf(ctx: ToolContext, abs: string): Promise<string> {
  if (!ctx.host.realPath) return abs;
  try {
    return await ctx.host.realPath(abs);
  } catch {
    return abs;
  }
}

/**
 * The one place a file tool turns its `path` argument into the absolute path it acts on, and asks
 * Hermes' denylists about it. However `resolveToolPath` anchors relative paths, the guards judge
 * the final absolute path and the path its symlinks lead to, so a link cannot walk around them.
 */
export async function guardedToolPath(ctx: ToolContext, input: string, access: FileAccess): Promise<GuardedPath> {
  const abs = resolveToolPath(input, toolBaseDir(ctx), ctx.host.homeDir);
  const real = await realPathOf(ctx, abs);
  const roots = guardRoots(ctx);
  const error = (access !== 'read' ? writeBlockError(input, abs, roots, real) : null) ?? (access !== 'write' ? readBlockError(input, abs, roots, real) : null);
  return error ? { abs, real, error } : { abs, real, error: null };
}
