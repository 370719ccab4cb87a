import type { AppDeps } from '../deps.js';
import type { Session } from '../shared/session.js';
import { continuationTip } from '../shared/canonical-session.js';

/**
 * The session answer's lineage fields: `canonical_visible_session_id` (ours, always: the
 * session ordinary navigation shows for this id) and, for a compression snapshot with a live
 * continuation, the incumbent's `continuation_session_id`. Only a snapshot costs a list read.
 */
export async function canonicalFields(deps: AppDeps, session: Session): Promise<{ canonical_visible_session_id: string; continuation_session_id?: string }> {
  if (session.pre_compression_snapshot !== true) return { canonical_visible_session_id: session.session_id };
  const { rows } = await deps.sessions.list({ includeArchived: true });
  const tip = continuationTip({ ...session, pre_compression_snapshot: true }, rows);
  return tip ? { canonical_visible_session_id: tip, continuation_session_id: tip } : { canonical_visible_session_id: session.session_id };
}
