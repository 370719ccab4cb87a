/**
 * Compile-time half of the run-event contract, checked by `npm run typecheck` (the root
 * tsconfig includes tests/): each `@ts-expect-error` line is a producer emitting a payload of
 * the wrong shape. If the contract stopped catching one, that directive would be unused and
 * typecheck would fail. Nothing here runs.
 */
import type { z } from 'zod';
import { runEvent, type EmitEvent, type TurnOutput } from '../../src/agent/runtime.js';
import type { Run } from '../../src/runs/run.js';
import type { ToolContext } from '../../src/agent/tools/types.js';
import type { RUN_EVENT_SCHEMAS, RunEventName, RunEventPayloads } from '../../src/shared/run-events.js';

declare const run: Run;
declare const emit: EmitEvent;
declare const ctx: ToolContext;
declare const push: (out: TurnOutput) => void;

export function wrongPayloads(): void {
  // The right shapes compile.
  run.emit('token', { text: 'hi' });
  emit('retrying', { attempt: 2, max: 3, reason: 'rate_limit', delay_ms: 1000 });
  push({ type: 'event', event: 'title', data: { session_id: 's', title: 'T' } });
  ctx.emit('todo_state', { todos: [], summary: { total: 0, pending: 0, in_progress: 0, completed: 0, cancelled: 0 }, version: 1 });

  // @ts-expect-error token text is a string
  run.emit('token', { text: 1 });
  // @ts-expect-error an unknown field on a token
  run.emit('token', { text: 'x', extra: true });
  // @ts-expect-error no such event
  run.emit('tokens', { text: 'x' });
  // @ts-expect-error stream_end names its session
  run.emit('stream_end', {});
  // @ts-expect-error retrying needs delay_ms
  emit('retrying', { attempt: 2, max: 3, reason: 'rate_limit' });
  // @ts-expect-error retrying's attempt is a number
  emit('retrying', { attempt: '2', max: 3, reason: 'rate_limit', delay_ms: 10 });
  // @ts-expect-error tool_complete needs is_error and result
  emit('tool_complete', { event_type: 'tool.completed', name: 't', preview: 't', args: {}, tool_call_id: 'c' });
  // @ts-expect-error a started tool is not `tool.completed`
  emit('tool', { event_type: 'tool.completed', name: 't', preview: 't', args: {}, tool_call_id: 'c' });
  // @ts-expect-error cancel's type is the literal "cancelled"
  run.emit('cancel', { message: 'm', type: 'stopped', status: 'cancelled', session_id: 's' });
  // @ts-expect-error apperror carries a hint
  run.emit('apperror', { message: 'm', type: 'error', session_id: 's' });
  // @ts-expect-error a TurnOutput event's data must match its name
  push({ type: 'event', event: 'title', data: { text: 'x' } });
  // @ts-expect-error an event name must be one of the contract's
  push({ type: 'event', event: 'thinking', data: { text: 'x' } });
  // @ts-expect-error a tool may not emit a todo_state without its summary
  ctx.emit('todo_state', { todos: [], version: 1 });
  // @ts-expect-error state_saved names a kind of file the control center shows
  ctx.emit('state_saved', { session_id: 's', kind: 'config', action: 'saved' });
  // @ts-expect-error runEvent checks the same way
  runEvent('warning', { message: 'no type' });
  // @ts-expect-error warning text is a string
  runEvent('warning', { type: 'x', message: null });
}

/** The payload types are the schemas' inferred types, both ways: they cannot drift. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Inferred = { [K in RunEventName]: z.infer<(typeof RUN_EVENT_SCHEMAS)[K]> };
export const inferredFromSchemas: Same<RunEventPayloads, Inferred> = true;
export const retryingShape: Same<RunEventPayloads['retrying'], { attempt: number; max: number; reason: string; delay_ms: number }> = true;
