import { msg } from '@lit/localize';
import { type WorkspaceUploaded, uploadToWorkspace } from '../api/uploads.js';
import { emit } from '../events.js';
import type { Attachment, Extraction } from './attachments.js';

/**
 * One attached archive extracted into the workspace root, `<workspace>/<stem>/`, by
 * POST /api/workspace/upload (the same extraction as the incumbent's). On success the item's path
 * becomes that folder, so a send names the folder rather than the archive, as the incumbent's
 * composer does, and the file tree is told to look again.
 */
export async function extractAttachment(
  item: Attachment,
  send: (sessionId: string, file: File) => Promise<WorkspaceUploaded> = (sid, file) => uploadToWorkspace(sid, '', file),
): Promise<Extraction> {
  try {
    const r = await send(item.sessionId!, item.file!);
    if (!r.extracted) throw new Error(r.extract_error || msg('Extraction failed'));
    item.path = r.path;
    emit(window, 'hermes-workspace-changed', { sessionId: item.sessionId! });
    return { state: 'done', count: r.extracted_count ?? 0, folder: r.path.split(/[\\/]/).pop() || r.path };
  } catch (err) {
    return { state: 'error', error: (err as Error).message };
  }
}
