import type { Logger } from '../../ports/platform.js';
import type { SteerOutcome } from '../runtime.js';
import { DETECT_TIMEOUT_MS, type GatewayHttp } from './http.js';

/**
 * `POST /v1/runs/{id}/steer {input}`: Hermes queues the text for the run's next tool boundary
 * (its `run.steered` event follows). A run past taking text answers 409
 * (`run_not_accepting_steer`, `steer_not_accepted`) or 404: the composer queues the text then.
 */
export async function steerRun(http: GatewayHttp, runId: string, text: string, logger: Logger): Promise<SteerOutcome> {
  const res = await http.send('POST', `/v1/runs/${encodeURIComponent(runId)}/steer`, { body: { input: text }, timeoutMs: DETECT_TIMEOUT_MS });
  const body = await res.text().catch(() => '');
  if (res.ok) {
    let accepted = true;
    try {
      accepted = (JSON.parse(body) as { accepted?: unknown }).accepted !== false;
    } catch {
      // A 2xx without a JSON body still means Hermes took it.
    }
    return accepted ? { accepted: true } : { accepted: false, fallback: 'gateway_steer_queued' };
  }
  if (res.status === 409 || res.status === 404) return { accepted: false, fallback: 'gateway_steer_queued' };
  logger.error({ msg: 'gateway: steer refused', run_id: runId, status: res.status, body: body.slice(0, 200) });
  return { accepted: false, fallback: 'steer_error' };
}
