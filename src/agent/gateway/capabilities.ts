/**
 * What a Hermes API server can do, from `GET /v1/capabilities` (absent on old servers), and the
 * path turns take: the runs API when it is there (tool events, approvals, stop), else streaming
 * chat completions with `X-Hermes-Session-Id`.
 */

export type GatewayPath = 'runs' | 'chat_completions';

export interface GatewayProfile {
  path: GatewayPath | null;
  /** The model name the server advertises (API_SERVER_MODEL_NAME). */
  model: string | null;
  platform: string | null;
  version: string | null;
  /** `POST /v1/runs/{id}/approval` and `approval.request` events (runs path only). */
  approvals: boolean;
  /** `POST /v1/runs/{id}/stop`; the chat-completions path stops by closing the connection. */
  stop: boolean;
  /** `POST /v1/runs/{id}/steer` (`run_steer`): text joins a running run at its next tool boundary. */
  steer: boolean;
  /** `reasoning_streaming`: Hermes shows reasoning only when display.show_reasoning is on. */
  reasoning: boolean;
  toolEvents: boolean;
  /**
   * The server keeps transcripts per session itself (session endpoints advertised): a run that
   * names a session it already has loads that session's history, so we send none.
   */
  sessions: boolean;
  /** The capabilities document itself was there (false: an older server, assumed chat-completions only). */
  advertised: boolean;
}

function flag(features: Record<string, unknown>, name: string): boolean {
  return features[name] === true;
}

/** Reads a capabilities document (null when the server has no `/v1/capabilities`). */
export function profileFrom(caps: Record<string, unknown> | null, health: Record<string, unknown> | null = null): GatewayProfile {
  const features = (caps?.features && typeof caps.features === 'object' ? caps.features : {}) as Record<string, unknown>;
  const endpoints = (caps?.endpoints && typeof caps.endpoints === 'object' ? caps.endpoints : {}) as Record<string, unknown>;
  const runs = flag(features, 'run_submission') && flag(features, 'run_events_sse');
  // Without a document, an old server: chat completions is the one thing every version has.
  const chat = caps ? features.chat_completions !== false : true;
  const sessions =
    Object.entries(features).some(([k, v]) => k.startsWith('session_') && v === true) ||
    Object.keys(endpoints).some((k) => k.startsWith('session_') || k.startsWith('sessions'));
  const path: GatewayPath | null = runs ? 'runs' : chat ? 'chat_completions' : null;
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return {
    path,
    model: text(caps?.model),
    platform: text(caps?.platform) ?? text(health?.platform),
    version: text(caps?.version) ?? text(health?.version),
    approvals: runs && flag(features, 'run_approval_response') && features.approval_events !== false,
    stop: runs && flag(features, 'run_stop'),
    steer: runs && flag(features, 'run_steer'),
    reasoning: flag(features, 'reasoning_streaming'),
    toolEvents: runs || features.tool_progress_events !== false,
    sessions,
    advertised: !!caps,
  };
}

/** What the UI says a path cannot do, one short sentence each. */
export function limitationsOf(p: GatewayProfile): string[] {
  const out: string[] = ['Clarifying questions are not available through the Hermes API server; the agent asks in its answer instead.'];
  if (p.path === 'chat_completions') {
    out.push('No approval prompts on this path: Hermes applies its own approvals.unattended_mode (dangerous commands are usually denied).');
    out.push('Stop closes the connection; Hermes interrupts the turn at its next step.');
  } else if (p.path === 'runs') {
    if (!p.approvals) out.push('This Hermes does not relay approvals: it applies its own approvals settings.');
    if (!p.stop) out.push('This Hermes cannot stop a run early; Stop only stops listening.');
  }
  if (!p.steer) out.push('Steering a running reply is not offered by this Hermes: messages typed meanwhile wait until it ends.');
  if (!p.reasoning) out.push('Reasoning is shown only when Hermes streams it (display.show_reasoning in its config.yaml).');
  out.push('Titles stay the first words of your message (Hermes does not name WebUI sessions).');
  return out;
}
