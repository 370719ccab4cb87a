import type { ReactiveControllerHost } from 'lit';

/**
 * Pasted images arrive as "image.png" (or nameless): each becomes `screenshot-<ts>.<ext>`, as
 * the incumbent names them (`-<n>` when one paste carries several). Other files keep their names.
 */
export function nameForPaste(file: File, index = 0, count = 1, now = Date.now()): File {
  if (!file.type.startsWith('image/') && !/^image\.\w+$/i.test(file.name)) return file;
  const ext = file.type.startsWith('image/') ? file.type.slice(6).replace(/\W.*$/, '') || 'png' : (file.name.split('.').pop() ?? 'png');
  return new File([file], `screenshot-${now}${count > 1 ? `-${index + 1}` : ''}.${ext}`, { type: file.type });
}

/** The incumbent's thresholds: a paste this long becomes an attachment instead of composer text. */
export const LARGE_PASTE_CHARS = 4000;
export const LARGE_PASTE_LINES = 100;

export function isLargePaste(text: string): boolean {
  if (!text.trim()) return false;
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return text.length >= LARGE_PASTE_CHARS || lines >= LARGE_PASTE_LINES;
}

/** `pasted-text-YYYY-MM-DD_HH-MM-SS-mmm.md` in local time (the incumbent's name). */
export function pastedTextFile(text: string, now = new Date()): File {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}_${p(now.getHours())}-${p(now.getMinutes())}-${p(now.getSeconds())}-${p(now.getMilliseconds(), 3)}`;
  return new File([text], `pasted-text-${stamp}.md`, { type: 'text/markdown;charset=utf-8' });
}

/**
 * The ways files reach the composer: the file picker, drag-and-drop onto it, and paste.
 * Handlers are arrow fields, ready to bind in a template; `dragging` drives the drop hint.
 */
export class FileIntake {
  dragging = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly add: (files: File[]) => void,
    /** The `large_text_paste_as_attachment` setting (default on). */
    private readonly largePasteAsFile: () => boolean = () => true,
  ) {}

  #setDragging(on: boolean) {
    if (this.dragging === on) return;
    this.dragging = on;
    this.host.requestUpdate();
  }

  paste = (e: ClipboardEvent) => {
    const files = [...(e.clipboardData?.files ?? [])];
    if (!files.length) {
      const text = e.clipboardData?.getData('text/plain') ?? '';
      if (!this.largePasteAsFile() || !isLargePaste(text)) return;
      e.preventDefault();
      this.add([pastedTextFile(text)]);
      return;
    }
    e.preventDefault();
    const now = Date.now();
    this.add(files.map((f, i) => nameForPaste(f, i, files.length, now)));
  };

  /** dragenter and dragover: only a drag carrying files is ours. */
  drag = (e: DragEvent) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    e.preventDefault();
    this.#setDragging(true);
  };

  /** dragleave fires when moving between children too; only leaving the frame counts. */
  leave = (e: DragEvent) => {
    if (!(e.currentTarget as Node).contains(e.relatedTarget as Node | null)) this.#setDragging(false);
  };

  drop = (e: DragEvent) => {
    this.#setDragging(false);
    const files = [...(e.dataTransfer?.files ?? [])];
    if (!files.length) return;
    e.preventDefault();
    this.add(files);
  };

  pick = (e: Event) => {
    const input = e.target as HTMLInputElement;
    this.add([...(input.files ?? [])]);
    input.value = '';
  };
}
