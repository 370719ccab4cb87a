/**
 * A small RFC 4180 reader for previews: quoted fields, doubled quotes, CRLF, and a comma or tab
 * delimiter. It stops after `maxRows` rows, so a large file costs only what is shown.
 */
export interface CsvPreview {
  rows: string[][];
  /** More rows follow (in the text, or past the bytes that were fetched). */
  more: boolean;
}

export function parseCsv(text: string, options: { maxRows: number; delimiter?: string; truncated?: boolean }): CsvPreview {
  const delimiter = options.delimiter ?? sniffDelimiter(text);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  // Where the row being read began: a cut-off last row (the fetch stopped mid-file) is dropped.
  let rowStart = 0;
  const endRow = () => {
    row.push(field);
    field = '';
    if (!(row.length === 1 && row[0] === '')) rows.push(row);
    row = [];
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === delimiter) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
      rowStart = i + 1;
      if (rows.length > options.maxRows) return { rows: rows.slice(0, options.maxRows), more: true };
    } else field += ch;
    i++;
  }
  if (options.truncated) return { rows: rows.slice(0, options.maxRows), more: true };
  if (rowStart < text.length) endRow();
  return { rows: rows.slice(0, options.maxRows), more: rows.length > options.maxRows };
}

/** Tab when the first line has more tabs than commas. */
function sniffDelimiter(text: string): string {
  const first = text.slice(0, text.search(/\r|\n|$/));
  const count = (c: string) => first.split(c).length - 1;
  return count('\t') > count(',') ? '\t' : ',';
}
