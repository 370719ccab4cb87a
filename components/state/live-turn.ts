import { toolFailed, toolPreviewTarget } from '../../src/shared/run-event-rules.js';
import type { RunEventHandlers } from './run-stream.js';
import type { AssistantTurn } from './turns.js';

type TurnEvents = 'token' | 'reasoning' | 'tool' | 'tool_complete' | 'compressing' | 'compressed' | 'warning' | 'retrying';

/**
 * How the events that build the live assistant turn change it. `live()` is the turn (made on
 * first use); `changed.frame` asks for a render this animation frame (streaming), `changed.now`
 * for one at once. A retry notice stays until the model's next token, tool or the end.
 */
export function liveTurnHandlers(live: () => AssistantTurn, changed: { frame(): void; now(): void }): Pick<RunEventHandlers, TurnEvents> {
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
  };
}
