import { msg } from '@lit/localize';
import { toolFailed, toolPreviewTarget } from '../../src/shared/run-event-rules.js';
import type { ApiSession } from '../api/client.js';
import { emit } from '../events.js';
import type { ChatStore } from './chat-store.js';
import type { RunEventHandlers } from './run-stream.js';
import type { AssistantTurn } from './turns.js';
import { applySubagentEvent } from './subagents.js';

/** The window event a `state_saved` run event becomes (detail: its data). */
export const STATE_SAVED_EVENT = 'hermes-state-saved';

type TurnEvents =
  | 'token'
  | 'reasoning'
  | 'tool'
  | 'tool_complete'
  | 'compressing'
  | 'compressed'
  | 'warning'
  | 'retrying'
  | 'subagent'
  | 'steer_applied'
  | 'resumed'
  | 'turn_changes'
  | 'context_status';

/**
 * How the events that build the live assistant turn change it. `live()` is the turn (made on
 * first use); `changed.frame` asks for a render this animation frame (streaming), `changed.now`
 * for one at once. A retry notice stays until the model's next token, tool or the end.
 */
function liveTurnHandlers(live: () => AssistantTurn, changed: { frame(): void; now(): void }): Pick<RunEventHandlers, TurnEvents> {
  const progressed = () => {
    const turn = live();
    turn.retrying = undefined;
    return turn;
  };
  return {
    token: (d) => {
      progressed().text += d.text;
      changed.frame();
    },
    reasoning: (d) => {
      progressed().reasoning += d.text;
      changed.frame();
    },
    tool: (d) => {
      progressed().tools.push({ id: d.tool_call_id, name: d.name, preview: toolPreviewTarget(d.name, d.preview), args: d.args, status: 'running' });
      changed.frame();
    },
    tool_complete: (d) => {
      const t = progressed().tools.find((x) => x.id === d.tool_call_id);
      if (t) {
        t.status = toolFailed(d) ? 'error' : 'done';
        if (d.duration !== undefined) t.duration = d.duration;
        t.result = d.result;
      }
      changed.frame();
    },
    compressing: () => {
      live().compression = 'compressing';
      changed.now();
    },
    compressed: () => {
      live().compression = 'compressed';
      changed.now();
    },
    warning: (d) => {
      live().warnings.push(d.message);
      changed.now();
    },
    retrying: (d) => {
      live().retrying = { attempt: d.attempt, max: d.max, reason: d.reason };
      changed.now();
    },
    // The delegate_task tree in the Activity row: one row per child session, updated in place.
    subagent: (d) => {
      const turn = live();
      turn.subagents = applySubagentEvent(turn.subagents ?? [], d);
      changed.frame();
    },
    // Steer text joined the conversation after a tool batch: a line where the prose stands now.
    steer_applied: (d) => {
      const turn = live();
      (turn.steers ??= []).push({ text: d.text, at: turn.text.length });
      changed.now();
    },
    // The server restarted and the turn carries on: a quiet line where the prose stood.
    resumed: (d) => {
      const turn = live();
      (turn.resumes ??= []).push({ at: turn.text.length, message: d.message });
      turn.retrying = undefined;
      changed.now();
    },
    // Prefill context (the incumbent's composer status): a quiet line; nothing when none is configured.
    context_status: (d) => {
      const p = d.prefill;
      if (p.status === 'not_configured') return;
      live().context = {
        status: p.status,
        label: p.label || msg('prefill context'),
        ...(p.error ? { error: p.error } : {}),
        ...(p.compacted && p.source === 'budget_compacted' ? { leftOut: true } : {}),
      };
      changed.now();
    },
    // What the turn changed in the workspace, before `done`: the "Changed N files" row.
    turn_changes: (d) => {
      live().changes = { streamId: d.stream_id, files: d.file_changes, additions: d.additions, deletions: d.deletions };
      changed.now();
      // The open file tree shows what the agent made or removed without a manual refresh.
      if (d.file_changes.length) emit(window, 'hermes-workspace-changed', { sessionId: d.session_id });
    },
  };
}

/**
 * Every run event's handler for the open chat: the live turn's (above), and what the rest do
 * to the store — approval and clarify cards, todos, the title, and settling on a closing event.
 */
export function runHandlers(
  chat: ChatStore,
  live: () => AssistantTurn,
  changed: { frame(): void; now(): void; settle(session: ApiSession | undefined): void },
): RunEventHandlers {
  const attention = () => chat.onSessionChanged?.(chat.sessionId!, { attention: true });
  return {
    ...liveTurnHandlers(live, changed),
    approval: (d) => {
      chat.approval = d;
      attention();
      changed.now();
    },
    clarify: (d) => {
      chat.clarify = d;
      attention();
      changed.now();
    },
    metering: (d) => {
      chat.tps = d.tps_available ? d.tps : null;
    },
    todo_state: (d) => {
      chat.todos = d.todos;
      changed.now();
    },
    // The agent wrote a memory file or a skill: whichever panel shows it reloads (window event).
    state_saved: (d) => {
      window.dispatchEvent(new CustomEvent(STATE_SAVED_EVENT, { detail: d }));
    },
    title: (d) => {
      if (chat.session) chat.session = { ...chat.session, title: d.title };
      chat.onSessionChanged?.(d.session_id, { title: d.title });
      changed.now();
    },
    // The stream's sessions are presentSession's shape, which is what the API client calls ApiSession.
    done: (d) => changed.settle(d.session as ApiSession),
    cancel: (d) => changed.settle(d.session as ApiSession | undefined),
    apperror: (d) => {
      if (d.session) return changed.settle(d.session as ApiSession);
      const turn = live();
      turn.error = { message: d.message, type: d.type, hint: d.hint, ...(d.hint_code ? { hintCode: d.hint_code, hintArgs: d.hint_args ?? {} } : {}) };
      turn.retrying = undefined;
      chat.status = 'idle';
      changed.now();
    },
    stream_end: () => {},
    // No tool boundary took the steer: the composer gets the text back (chat.steerLeftover).
    pending_steer_leftover: (d) => {
      if (d.session_id !== chat.sessionId) return;
      chat.steerLeftover = chat.steerLeftover ? `${chat.steerLeftover}\n${d.text}` : d.text;
      changed.now();
    },
  };
}
