import { z } from 'zod';

/**
 * Hermes' `delegation:` block of config.yaml, as delegate_task reads it. A value that is not
 * usable falls back to the default (Hermes logs and carries on; it never fails the turn).
 */
export interface DelegationConfig {
  /** `max_iterations`: each child's own model-call budget (default 50). */
  maxIterations: number;
  /** `max_concurrent_children`: the most tasks one call may run at once (default 3, floor 1). */
  maxConcurrentChildren: number;
  /** `max_spawn_depth`: depth 0 is the parent; children at this depth cannot delegate (default 1, floor 1). */
  maxSpawnDepth: number;
  /** `orchestrator_enabled`: whether role "orchestrator" may keep delegate_task (default true). */
  orchestratorEnabled: boolean;
  /** `child_timeout_seconds`: a wall-clock cap per child, null when off (default; floor 30 s). */
  childTimeoutSeconds: number | null;
  /** `subagent_auto_approve`: a command that needs approval runs (true) or is refused (false, default). */
  subagentAutoApprove: boolean;
  /** `model`: the model children use (default: the parent's). */
  model: string | null;
}

/** Lenient: the block is read field by field, so one odd value never makes config.yaml unusable. */
export const DelegationFileSchema = z.unknown().optional();

const DEFAULTS: DelegationConfig = {
  maxIterations: 50,
  maxConcurrentChildren: 3,
  maxSpawnDepth: 1,
  orchestratorEnabled: true,
  childTimeoutSeconds: null,
  subagentAutoApprove: false,
  model: null,
};

function int(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? Math.trunc(n) : null;
}

function bool(value: unknown, fallback: boolean): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return ['true', '1', 'yes', 'on'].includes(value.trim().toLowerCase());
  if (typeof value === 'number') return value !== 0;
  return fallback;
}

export function delegationConfig(raw: unknown): DelegationConfig {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ...DEFAULTS };
  const d = raw as Record<string, unknown>;
  const iterations = int(d.max_iterations);
  const children = int(d.max_concurrent_children);
  const depth = int(d.max_spawn_depth);
  const timeout = typeof d.child_timeout_seconds === 'number' ? d.child_timeout_seconds : int(d.child_timeout_seconds);
  const model = typeof d.model === 'string' ? d.model.trim() : '';
  return {
    maxIterations: iterations !== null && iterations > 0 ? iterations : DEFAULTS.maxIterations,
    maxConcurrentChildren: children !== null ? Math.max(1, children) : DEFAULTS.maxConcurrentChildren,
    maxSpawnDepth: depth !== null ? Math.max(1, depth) : DEFAULTS.maxSpawnDepth,
    orchestratorEnabled: bool(d.orchestrator_enabled, DEFAULTS.orchestratorEnabled),
    // Zero or less turns the cap off; a positive value is at least 30 s, as in Hermes.
    childTimeoutSeconds: timeout !== null && timeout > 0 ? Math.max(30, timeout) : null,
    subagentAutoApprove: bool(d.subagent_auto_approve, DEFAULTS.subagentAutoApprove),
    model: model || null,
  };
}
