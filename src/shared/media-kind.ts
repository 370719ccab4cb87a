/**
 * How an answer's file is shown, from its extension: the server picks Content-Disposition by it,
 * the browser picks the element. No imports, so the browser bundle can take it.
 */
export type MediaKind = 'image' | 'svg' | 'audio' | 'video' | 'pdf' | 'csv' | 'html' | 'file';

const KINDS: Record<string, MediaKind> = {
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  avif: 'image',
  bmp: 'image',
  ico: 'image',
  svg: 'svg',
  mp3: 'audio',
  wav: 'audio',
  ogg: 'audio',
  oga: 'audio',
  opus: 'audio',
  m4a: 'audio',
  aac: 'audio',
  flac: 'audio',
  mp4: 'video',
  m4v: 'video',
  webm: 'video',
  mov: 'video',
  ogv: 'video',
  pdf: 'pdf',
  csv: 'csv',
  tsv: 'csv',
  html: 'html',
  htm: 'html',
};

export function mediaKind(path: string): MediaKind {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? (KINDS[name.slice(dot + 1).toLowerCase()] ?? 'file') : 'file';
}
