import type { SessionUsage } from '../../src/shared/session-usage.js';
import { q, request } from './client.js';

export type { SessionUsage };

/** GET /api/session/usage: the session's token and cost totals and its context fill (`/usage`). */
export const sessionUsage = (sid: string) => request<SessionUsage>('GET', `/api/session/usage?${q({ session_id: sid })}`);
