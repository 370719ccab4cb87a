import { msg, str } from '@lit/localize';
import { chatControls } from '../api/chat-controls.js';
import type { ChatStore } from '../state/chat-store.js';
import type { UiStore } from '../state/ui-store.js';

const POLL_MS = 500;

/**
 * Runs the server's manual compression job for `sid` to its end (start, then poll status),
 * then reloads the session so its divider and its smaller context (the ring) show at once.
 * Shared by `/compress`, `/compact` and the context ring's Compress button. Throws the job's
 * error; the caller decides how to show it.
 */
export async function compressSession(chat: ChatStore, ui: UiStore, sid: string, focus: string): Promise<void> {
  ui.notify(focus ? msg(str`Compressing the context around “${focus}”…`) : msg('Compressing the context…'));
  let job = await chatControls.compressStart(sid, focus || null);
  while (job.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    job = await chatControls.compressStatus(sid);
  }
  if (job.status !== 'done') throw new Error(job.error ?? msg('Compression failed'));
  await chat.reload();
  ui.notify(job.summary?.headline ?? msg('Context compressed.'));
}
