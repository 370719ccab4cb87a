import type { ReasoningStatus } from '../../src/agent/reasoning-config.js';
import { q, request } from './client.js';

export type { ReasoningStatus };

/** A manual compression job (the incumbent's shape); `summary.headline` says what was done. */
export interface CompressJob {
  ok: boolean;
  status: 'idle' | 'running' | 'done' | 'error';
  session_id: string;
  error?: string;
  summary?: { headline: string };
}

/**
 * `POST /api/chat/steer`'s answer (the incumbent's shape): `accepted` when the running turn takes
 * the text at its next tool step; otherwise `fallback` names why (`not_running`,
 * `gateway_steer_queued`, …) and the caller decides what becomes of the text.
 */
export interface SteerResult {
  accepted: boolean;
  fallback?: string | null;
  stream_id?: string | null;
}

/** The composer's controls of the agent: reasoning effort (config.yaml) and manual compression. */
export const chatControls = {
  /** config.yaml's `agent.reasoning_effort` and `display.show_reasoning`, gated on `model`. */
  reasoning: (model?: string | null) => request<ReasoningStatus>('GET', `/api/reasoning?${q({ model: model ?? undefined })}`),
  setReasoning: (change: { effort?: string; display?: 'show' | 'hide' }, model?: string | null) =>
    request<ReasoningStatus>('POST', '/api/reasoning', { ...change, ...(model ? { model } : {}) }),
  /** Manual compression (`/compress`): starts the job; poll compressStatus until it is no longer running. */
  compressStart: (sid: string, focus: string | null) =>
    request<CompressJob>('POST', '/api/session/compress/start', { session_id: sid, ...(focus ? { focus_topic: focus } : {}) }),
  /** Hands text to the running turn of `sid` (steer); see SteerResult. */
  steer: (sid: string, text: string) => request<SteerResult>('POST', '/api/chat/steer', { session_id: sid, text }),
  compressStatus: (sid: string) => request<CompressJob>('GET', `/api/session/compress/status?${q({ session_id: sid })}`),
};
