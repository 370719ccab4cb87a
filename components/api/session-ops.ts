import { q, request } from './client.js';
import type { ApiSession } from './client.js';

/** GET /api/session/status: the `/status` card (the incumbent's fields). */
export interface SessionStatus {
  session_id: string;
  title: string;
  model: string | null;
  profile: string;
  hermes_home: string;
  workspace: string | null;
  personality: string | null;
  message_count: number;
  created_at: number;
  updated_at: number;
  agent_running: boolean;
  active_stream_id: string | null;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  estimated_cost: number | null;
}

export interface Personality {
  name: string;
  description: string;
}

/** Server-side operations on the last exchange, the status card, titles and personalities. */
export const sessionOps = {
  retry: (sid: string) =>
    request<{ ok: true; last_user_text: string; last_user_attachments: string[]; removed_count: number }>('POST', '/api/session/retry', { session_id: sid }),
  undo: (sid: string) =>
    request<{ ok: true; removed_count: number; removed_preview: string; removed_text: string; removed_attachments: string[] }>('POST', '/api/session/undo', {
      session_id: sid,
    }),
  status: (sid: string) => request<SessionStatus>('GET', `/api/session/status?${q({ session_id: sid })}`),
  regenerateTitle: (sid: string, preferLatest = false) =>
    request<{ session: ApiSession; title: string }>('POST', '/api/session/title/regenerate', { session_id: sid, prefer_latest: preferLatest }),
  personalities: () => request<{ personalities: Personality[] }>('GET', '/api/personalities').then((r) => r.personalities),
  setPersonality: (sid: string, name: string) => request<{ ok: true; personality: string | null }>('POST', '/api/personality/set', { session_id: sid, name }),
};
