import { failureHint } from '../../shared/server-texts-en.js';
import { ProviderError } from '../providers/types.js';
import { num, str } from './http.js';

// How a gateway turn ends, shared by the runs API and chat completions: the errors for a run
// that failed, was cancelled or said nothing, and the token usage Hermes reports.

/** The run ended on Hermes' side (failed, cancelled): nothing left to stop. */
export class RunEnded extends ProviderError {}

export function runFailed(error: string): ProviderError {
  return new RunEnded('error', `Hermes Agent could not finish: ${error}`, failureHint('gateway_run_failed', {}), undefined, error.slice(0, 1200));
}

export function streamError(raw: unknown): ProviderError {
  const e = (typeof raw === 'object' && raw ? raw : { message: String(raw) }) as Record<string, unknown>;
  return runFailed(str(e.message) ?? JSON.stringify(raw).slice(0, 200));
}

export function cancelledElsewhere(): ProviderError {
  return new RunEnded('interrupted', 'Hermes Agent cancelled the run', failureHint('gateway_cancelled', {}));
}

export function emptyAnswer(): ProviderError {
  return new ProviderError('no_response', 'Hermes Agent finished without an answer', failureHint('gateway_empty_answer', {}));
}

export function usageOf(raw: unknown): { input: number; output: number } | null {
  if (!raw || typeof raw !== 'object') return null;
  const u = raw as Record<string, unknown>;
  const input = num(u.input_tokens) ?? num(u.prompt_tokens);
  const output = num(u.output_tokens) ?? num(u.completion_tokens);
  if (input === undefined && output === undefined) return null;
  return { input: input ?? 0, output: output ?? 0 };
}

export function chatUsage(raw: unknown): { input: number; output: number } | null {
  return usageOf(raw);
}
