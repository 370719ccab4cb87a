import type { InteractionHub } from '../../runs/interactions.js';
import { ProviderError } from '../providers/types.js';
import type { ApprovalChoice, ApprovalRequest } from '../tools/types.js';
import { runEvent, type TurnInput, type TurnOutput } from '../runtime.js';
import { anySignal, num, str } from './http.js';

const CHOICES: ApprovalChoice[] = ['once', 'session', 'always', 'deny'];

/** What RunApprovals needs of the runtime (GatewayAgentRuntime); an interface, so this module does not import it back. */
export interface ApprovalHost {
  readonly hub: InteractionHub;
  readonly approvalTimeoutMs: number;
  answerApproval(runId: string, choice: ApprovalChoice, requestId: string | undefined): Promise<void>;
}

/**
 * Approvals of one run: each `approval.request` is queued in the InteractionHub (so the
 * approval card and POST /api/approval/respond work unchanged) and the answer is relayed to
 * `POST /v1/runs/{id}/approval`. While one waits, silence on the stream is expected.
 */
export class RunApprovals {
  waiting = 0;
  #outstanding: Array<{ withdraw: AbortController; requestId: string | undefined; answered: boolean }> = [];
  /** Answers posted whose `approval.responded` has not come back yet. */
  #unacknowledged = 0;
  #closed = new AbortController();

  constructor(
    private readonly runtime: ApprovalHost,
    private readonly runId: string,
    private readonly input: TurnInput,
    private readonly emit: (out: TurnOutput) => void,
  ) {}

  request(d: Record<string, unknown>) {
    const hub = this.runtime.hub;
    const sid = this.input.session.session_id;
    const patternKey = str(d.pattern_key) ?? '';
    const patternKeys = Array.isArray(d.pattern_keys) ? d.pattern_keys.filter((k): k is string => typeof k === 'string') : patternKey ? [patternKey] : [];
    const request: ApprovalRequest = {
      command: str(d.command) ?? str(d.preview) ?? '',
      description: str(d.description) ?? str(d.reason) ?? 'Hermes asks before running this',
      pattern_key: patternKey,
      pattern_keys: patternKeys,
      tool: str(d.tool) ?? 'terminal',
    };
    const withdraw = new AbortController();
    const entry = { withdraw, requestId: str(d.request_id) ?? str(d.approval_id), answered: false };
    this.#outstanding.push(entry);
    const signal = anySignal([this.input.signal, withdraw.signal, this.#closed.signal]);
    const { pending, answer } = hub.requestApproval(sid, this.input.streamId, request, this.runtime.approvalTimeoutMs, signal);
    const offered = Array.isArray(d.choices) ? CHOICES.filter((c) => (d.choices as unknown[]).includes(c)) : [];
    if (offered.length) pending.choices = offered;
    this.waiting++;
    this.emit(runEvent('approval', { ...pending, gateway_run_id: this.runId, pending_count: hub.pendingApproval(sid).pending_count }));
    answer
      .then(async (answered) => {
        // Hermes has no timeout answer: nobody answering here is a deny there (silence is not consent).
        const choice = answered === 'timeout' ? 'deny' : answered;
        entry.answered = true;
        this.#unacknowledged++;
        try {
          await this.runtime.answerApproval(this.runId, choice, entry.requestId);
        } catch (err) {
          this.#unacknowledged--;
          const e = err instanceof ProviderError ? err : null;
          // 409: Hermes stopped waiting (its own timeout) — the run goes on without this answer.
          if (!this.#closed.signal.aborted) {
            this.emit(
              runEvent('warning', { type: 'approval_not_delivered', message: `Hermes did not take the answer "${choice}": ${e?.message ?? String(err)}` }),
            );
          }
        }
      })
      .catch(() => {
        // Withdrawn (Hermes decided without us), cancelled, or the run ended.
      })
      .finally(() => {
        this.waiting--;
        this.#outstanding = this.#outstanding.filter((o) => o !== entry);
      });
  }

  /** Hermes resolved an approval: ours (acknowledged), or one it decided itself (withdrawn here). */
  responded(d: Record<string, unknown>) {
    const requestId = str(d.request_id) ?? str(d.approval_id);
    const count = Math.max(1, num(d.resolved) ?? 1);
    for (let i = 0; i < count; i++) {
      if (requestId) {
        const entry = this.#outstanding.find((o) => o.requestId === requestId && !o.answered);
        if (entry) entry.withdraw.abort();
        else if (this.#unacknowledged > 0) this.#unacknowledged--;
        continue;
      }
      if (this.#unacknowledged > 0) {
        this.#unacknowledged--;
        continue;
      }
      this.#outstanding.find((o) => !o.answered)?.withdraw.abort();
    }
  }

  close() {
    this.#closed.abort();
  }
}
