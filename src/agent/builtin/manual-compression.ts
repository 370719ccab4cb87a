import type { Message } from '../../shared/session.js';
import type { AgentConfig } from '../config.js';
import type { ModelProvider } from '../providers/types.js';
import { chooseAnchor, compressTranscript } from './compression.js';
import { AppError } from '../../ports/errors.js';
import { compressionHeadEnd, type CompressionAnchor } from './history.js';

/**
 * A manual compression (`/compress [focus]`): everything before the last exchange is
 * summarised, whatever `compression.protect_last_n` says, so short sessions shrink too. The
 * head (`protect_first_n`) stays verbatim only when it ends before that exchange. Null when
 * there is nothing left to summarise (already compressed up to the last exchange).
 */
export async function compressManually(input: {
  config: AgentConfig;
  summariser: { provider: ModelProvider; model: string };
  fallback: { provider: ModelProvider; model: string };
  transcript: readonly Message[];
  previous: CompressionAnchor | null;
  focusTopic: string | null;
  signal: AbortSignal;
}) {
  const { transcript } = input;
  let lastUser = -1;
  for (let i = transcript.length - 1; i >= 0; i--) {
    const m = transcript[i]!;
    if (m.role === 'user' && m._error !== true && m._interrupted !== true) {
      lastUser = i;
      break;
    }
  }
  if (lastUser <= 0) return null;
  const headEnd = compressionHeadEnd(transcript, input.config.compression.protectFirstN);
  const protectFirstN = headEnd < lastUser ? input.config.compression.protectFirstN : 0;
  const protectLastN = transcript.length - lastUser;
  if (chooseAnchor(transcript, protectLastN, input.previous?.anchor ?? 0, compressionHeadEnd(transcript, protectFirstN)) === null) return null;
  const done = await compressTranscript({
    ...input.summariser,
    fallback: input.fallback,
    abortOnFailure: input.config.compression.abortOnSummaryFailure,
    transcript,
    previous: input.previous,
    protectFirstN,
    protectLastN,
    signal: input.signal,
    focusTopic: input.focusTopic,
  });
  // Only `compression.abort_on_summary_failure` leaves it null here: the summary could not be written.
  if (!done) throw new AppError(502, 'The summary model failed, so nothing was compressed (compression.abort_on_summary_failure is on).');
  return done;
}
