import type { TestApp } from '../helpers/app.js';

export async function postForm(
  t: TestApp,
  path: string,
  fields: Record<string, string>,
  files: { name: string; data: BlobPart | Uint8Array; field?: string }[],
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(f.field ?? 'file', new Blob([f.data as BlobPart]), f.name);
  const res = await t.app.request(path, { method: 'POST', body: form });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body, res };
}
