import { unifiedDiff } from '../../domain/unified-diff.js';
import { errorMessage } from './args.js';
import { fileEditReason } from './file-edit-policy.js';
import { realPathOf } from './guarded-path.js';
import { displayPath } from './paths.js';
import type { ToolContext } from './types.js';

/** The card shows this much of a diff; the rest is cut with a marker (the edit itself is whole). */
const MAX_APPROVAL_DIFF_CHARS = 100_000;

export interface EditPlan {
  tool: 'write_file' | 'patch';
  abs: string;
  real: string;
  /** The file as it is now (null: it does not exist) and as the call would leave it. */
  load(): Promise<{ before: string | null; after: string }>;
}

/**
 * write_file's and patch's approval step, before anything is written: null to go ahead, else the
 * error to return. When the edit needs a yes, the diff is made from the computed content, and
 * after a yes the file is read again: if it changed while the card waited, nothing is written
 * (the person approved that diff, not another one) and the model is told to read it again.
 */
export async function approveEdit(ctx: ToolContext, plan: EditPlan): Promise<string | null> {
  const gate = ctx.fileEdits;
  if (!gate) return null;
  const mode = gate.mode();
  if (mode === 'never') return null;
  const realWorkspace = await realPathOf(ctx, ctx.workspace);
  const reason = fileEditReason(mode, { abs: plan.abs, real: plan.real, workspace: ctx.workspace, realWorkspace, homeDir: ctx.host.homeDir });
  if (!reason) return null;
  let before: string | null;
  let after: string;
  try {
    ({ before, after } = await plan.load());
  } catch (err) {
    return `Cannot read ${plan.abs} to show the edit for approval: ${errorMessage(err)}`;
  }
  const shown = displayPath(plan.abs, ctx.workspace);
  // `a/tmp/x`, as git names an absolute path, not `a//tmp/x`.
  const header = shown.replace(/^\/+/, '');
  const { diff } = unifiedDiff(header, header, before, after, { maxChars: MAX_APPROVAL_DIFF_CHARS });
  const refusal = await gate.ask({ tool: plan.tool, abs: plan.abs, path: shown, reason, diff });
  if (refusal) return refusal;
  let now: string | null;
  try {
    now = await ctx.host.readText(plan.abs);
  } catch (err) {
    return `Cannot read ${plan.abs} again after approval: ${errorMessage(err)}`;
  }
  if (now !== before) {
    return `${plan.abs} changed while the edit waited for approval, so nothing was written. Read it again and redo the edit.`;
  }
  return null;
}
