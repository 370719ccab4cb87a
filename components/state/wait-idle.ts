import { api } from '../api/client.js';

/**
 * Waits until no run is going in `sid` (the server takes one turn at a time per session): the
 * open chat's status when it shows `sid`, else the stored session's active stream, every 500 ms
 * for at most five minutes.
 */
export async function waitIdle(chat: { readonly sessionId: string | null; readonly status: string }, sid: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (chat.sessionId === sid) {
      if (chat.status === 'idle') return;
    } else {
      const s = await api.session(sid, { msgLimit: 1 }).catch(() => null);
      if (!s?.active_stream_id) return;
    }
    await new Promise((res) => setTimeout(res, 500));
  }
}
