import type { ReactiveControllerHost } from 'lit';

/** Pasted screenshots all arrive as "image.png"; give them names that tell them apart. */
export function nameForPaste(file: File): File {
  if (!/^image\.\w+$/i.test(file.name)) return file;
  const ext = file.name.split('.').pop();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  return new File([file], `screenshot-${stamp}.${ext}`, { type: file.type });
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
  ) {}

  #setDragging(on: boolean) {
    if (this.dragging === on) return;
    this.dragging = on;
    this.host.requestUpdate();
  }

  paste = (e: ClipboardEvent) => {
    const files = [...(e.clipboardData?.files ?? [])];
    if (!files.length) return;
    e.preventDefault();
    this.add(files.map(nameForPaste));
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
