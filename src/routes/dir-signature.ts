import type { FileEntry } from '../ports/workspace-files.js';

/**
 * The incumbent's `signature` of a listing (api/workspace.py dir_signature): SHA-256 of the
 * entries' display fields as sorted-key compact JSON, so its tree can skip redrawing an
 * unchanged folder. Times go in as bare integers, as Python writes them.
 */
export async function dirSignature(entries: FileEntry[]): Promise<string> {
  const rows = entries.map((e) => {
    const symlink = e.type === 'symlink';
    // Sorted keys; the fields a plain entry lacks there are null.
    const fields: Array<[string, string]> = [
      ['is_dir', symlink ? JSON.stringify(e.is_dir) : 'null'],
      ['mtime_ns', /^\d+$/.test(e.mtime_ns) ? e.mtime_ns : 'null'],
      ['name', JSON.stringify(e.name)],
      ['path', JSON.stringify(e.path)],
      ['size', symlink && (e.target_outside_workspace || e.is_dir) ? 'null' : e.type === 'dir' ? 'null' : String(e.size)],
      ['target', e.target !== undefined ? JSON.stringify(e.target) : 'null'],
      ['target_outside_workspace', symlink ? JSON.stringify(!!e.target_outside_workspace) : 'null'],
      ['type', JSON.stringify(e.type)],
    ];
    return `{${fields.map(([k, v]) => `"${k}":${v}`).join(',')}}`;
  });
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`[${rows.join(',')}]`));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
