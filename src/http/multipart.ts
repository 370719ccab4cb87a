import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { BadRequest } from '../ports/errors.js';

/** Room for a multipart body's boundaries and headers beyond its file. */
export const MULTIPART_OVERHEAD = 64 * 1024;

/** The body cap for one file of at most `max` bytes; past it, `tooLarge()` is the answer. */
export const multipartLimit = (max: number, tooLarge: () => Error) =>
  bodyLimit({
    maxSize: max + MULTIPART_OVERHEAD,
    onError: () => {
      throw tooLarge();
    },
  });

/**
 * The form and its `file` field, with the incumbent's refusals in its order: not multipart, a
 * malformed body, no file field, no filename, a file over `max`.
 */
export async function multipartFile(c: Context, max: number, tooLarge: () => Error): Promise<{ form: FormData; file: File }> {
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    throw new BadRequest('Upload must be multipart/form-data with a "file" field');
  }
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw new BadRequest('Malformed multipart body');
  }
  const file = form.get('file');
  if (!file || typeof file === 'string') throw new BadRequest('No file field in request');
  if (!file.name) throw new BadRequest('No filename in upload');
  if (file.size > max) throw tooLarge();
  return { form, file };
}
