import { createHash } from 'node:crypto';
import type { AppEvent } from '../../../runs/app-events.js';
import type { ClusterReply, ClusterRequest } from '../../../ports/cluster.js';

/** Run wake-ups: `<origin>\n<streamId>:<seq>\n…`, one line per stream. */
export const RUN_CHANNEL = 'hermes_run_appended';
/** Everything else, as JSON envelopes. */
export const MESSAGE_CHANNEL = 'hermes_cluster';

/**
 * Postgres refuses NOTIFY payloads of 8000 bytes or more; past this an envelope goes through a
 * `hermes_cluster_messages` row and only its id is notified.
 */
export const MAX_PAYLOAD_BYTES = 7000;

export type Envelope = (
  | { k: 'event'; from: string; e: AppEvent }
  | { k: 'request'; from: string; to: string; id: string; r: ClusterRequest }
  | { k: 'reply'; from: string; to: string; id: string; r: ClusterReply }
  /** The listening connection's self-check: an instance hears its own pings while it listens. */
  | { k: 'ping'; from: string; to: string; id: string }
  /** An envelope too big to notify: read row `id` (only `to`, when set, needs to). */
  | { k: 'row'; from: string; to?: string; id: number }
) & {
  /**
   * The message's id, unique to the sending process (`<boot nonce>.<counter>`: an instance id may
   * be fixed and its counter restart): a receiver drops a second copy. Absent from older senders.
   */
  m?: string;
};

/**
 * The application name of an instance's listening connection: another instance that finds no
 * connection by that name in pg_stat_activity knows the instance is gone. Hashed, because
 * Postgres keeps 63 bytes of it and instance ids may be longer.
 */
export function presenceName(instanceId: string): string {
  return `hermes-cluster ${createHash('sha256').update(instanceId).digest('hex').slice(0, 24)}`;
}

/** Wake-up payloads for `wakes`, each under the size cap (a burst across many streams takes several). */
export function encodeWakes(origin: string, wakes: Map<string, number>): string[] {
  const payloads: string[] = [];
  let current = origin;
  for (const [streamId, seq] of wakes) {
    const line = `\n${streamId}:${seq}`;
    if (current.length + line.length > MAX_PAYLOAD_BYTES && current !== origin) {
      payloads.push(current);
      current = origin;
    }
    current += line;
  }
  if (current !== origin) payloads.push(current);
  return payloads;
}

/** The origin and `[streamId, seq]` pairs of one wake-up payload (malformed lines are skipped). */
export function decodeWakes(payload: string): { origin: string; wakes: Array<[string, number]> } {
  const lines = payload.split('\n');
  const origin = lines.shift() ?? '';
  const wakes: Array<[string, number]> = [];
  for (const line of lines) {
    const at = line.lastIndexOf(':');
    const seq = Number(line.slice(at + 1));
    if (at > 0 && Number.isInteger(seq)) wakes.push([line.slice(0, at), seq]);
  }
  return { origin, wakes };
}

/** An envelope from its JSON, or null when it is not one (another program on the channel). */
export function parseEnvelope(text: string): Envelope | null {
  try {
    const value = JSON.parse(text) as Envelope;
    return value && typeof value === 'object' && typeof value.k === 'string' && typeof value.from === 'string' ? value : null;
  } catch {
    return null;
  }
}
