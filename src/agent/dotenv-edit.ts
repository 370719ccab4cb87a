import { BadRequest } from '../ports/errors.js';

/**
 * Sets (or with null, removes) `KEY=value` in .env text, keeping every other line, comment and
 * blank line as it is. An existing `KEY=` / `export KEY=` line is replaced in place; a new one
 * goes at the end. Values that need it are double-quoted.
 */
export function setDotenvValue(text: string | null, key: string, value: string | null): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`Not an environment variable name: ${key}`);
  // A caller's value, so a 400 rather than a 500 if one slips past its route's own check.
  if (value !== null && /[\r\n\0]/.test(value)) throw new BadRequest('A value in .env cannot contain a line break');
  const lines = text ? text.split(/\r?\n/) : [];
  // A trailing newline leaves an empty last element; keep the file's ending as it was.
  const endsWithNewline = !!text && /\n$/.test(text);
  if (endsWithNewline) lines.pop();
  const matcher = new RegExp(`^\\s*(?:export\\s+)?${key}\\s*=`);
  const line = value === null ? null : `${key}=${quote(value)}`;
  let found = false;
  const out: string[] = [];
  for (const l of lines) {
    if (matcher.test(l)) {
      if (!found && line !== null) out.push(line);
      found = true;
      continue;
    }
    out.push(l);
  }
  if (!found && line !== null) out.push(line);
  return out.length ? out.join('\n') + '\n' : '';
}

/** Bare when safe; else single quotes (read literally), or double quotes for a value holding a `'`. */
function quote(value: string): string {
  if (/^[A-Za-z0-9_./:@+=,-]*$/.test(value)) return value;
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('"')) return `"${value}"`;
  throw new Error('A value in .env cannot contain both kinds of quote');
}
