import type { AppEvent } from '../runs/app-events.js';
import { AppError } from './errors.js';

/**
 * A request handed to the instance that owns a session's run (approve, clarify, cancel, steer,
 * pending lists, yolo): the HTTP request as the receiving instance validated it, replayed there
 * against its run routes, and the answer carried back.
 */
export interface ClusterRequest {
  method: string;
  /** Path and query, e.g. `/api/chat/cancel?stream_id=…`. */
  url: string;
  /** The JSON body as text, or null. */
  body: string | null;
  /** The browser's profile cookie value, so the owner resolves the same Hermes home. */
  profile: string | null;
}

export interface ClusterReply {
  status: number;
  /** JSON text. */
  body: string;
}

/**
 * Several Node instances on one database. Rows are the truth; what travels here only says
 * "look" (LISTEN/NOTIFY on Postgres, payloads kept small) or carries a short request to the
 * instance that owns a run. Absent (one process: fs or memory storage): everything is local.
 */
export interface Cluster {
  /** This instance's name (`HERMES_WEBUI_INSTANCE_ID`, else host:pid:random); run leases carry it. */
  readonly instanceId: string;
  /** Tells the other instances a run's journal holds events up to `seq` (after they are committed). */
  runAppended(streamId: string, seq: number): void;
  /**
   * Hears every instance's `runAppended`, this one's too (a follower here of a run this instance
   * took over from a dead owner is woken by its new local appends); the returned function stops listening.
   */
  onRunAppended(listener: (streamId: string, seq: number) => void): () => void;
  /** Sends one of this instance's app events to the others (live sync on every instance). */
  publish(event: AppEvent): void;
  /** Hears the other instances' app events. */
  onEvent(listener: (event: AppEvent, origin: string) => void): () => void;
  /** Asks `owner` to answer a run request; rejects when it does not answer within `timeoutMs`. */
  request(owner: string, request: ClusterRequest, timeoutMs?: number): Promise<ClusterReply>;
  /** Answers the run requests other instances send here (one handler). */
  serve(handler: (request: ClusterRequest) => Promise<ClusterReply>): void;
  /** Stops listening and releases its connection. */
  close(): Promise<void>;
}

/**
 * The instance a run request was for did not answer: `gone` when it no longer listens on the
 * database (it stopped or died), `timeout` when it listens but did not answer in time. A 503,
 * so a route that lets it through answers `{"error"}` with the right status.
 */
export class ClusterUnreachable extends AppError {
  constructor(
    readonly owner: string,
    readonly reason: 'gone' | 'timeout',
  ) {
    super(503, reason === 'gone' ? `the instance running this turn (${owner}) is gone` : `the instance running this turn (${owner}) did not answer in time`, {
      owner,
      reason,
    });
  }
}
