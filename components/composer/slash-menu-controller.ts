import type { ReactiveControllerHost } from 'lit';
import type { SlashItem } from './slash-commands.js';

type Slash = typeof import('./slash-commands.js');
let slash: Slash | null = null;
let loading: Promise<Slash> | null = null;

/**
 * The slash commands and their menu, fetched when the first `/` is typed (or sent): most
 * messages never need them, so they stay out of the shell.
 */
export function loadSlash(): Promise<Slash> {
  loading ??= Promise.all([import('./slash-commands.js'), import('./hermes-slash-menu.js')]).then(
    ([m]) => (slash = m),
    (err: unknown) => {
      loading = null; // the next `/` tries again
      throw err;
    },
  );
  return loading;
}

/**
 * The slash menu's state for the composer: which rows match the text, which one is active, and
 * whether Escape dismissed it (until the text changes). Focus stays in the textarea throughout.
 */
export class SlashMenuController {
  index = 0;
  /** The text the menu was dismissed for. */
  #closedFor: string | null = null;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly models: () => string[],
    /** Tab completes `item`; Enter (`run`) also runs it when it needs nothing more. */
    private readonly onPick: (item: SlashItem, run: boolean) => void,
  ) {}

  items(text: string): SlashItem[] {
    if (text === this.#closedFor || !text.startsWith('/')) return [];
    if (!slash) {
      void loadSlash().then(() => this.host.requestUpdate());
      return [];
    }
    return slash.suggestions(text, this.models());
  }

  /** Keeps the menu shut for `text` (after a pick or Escape); null reopens it. */
  close(text: string | null): void {
    this.#closedFor = text;
    this.index = 0;
    this.host.requestUpdate();
  }

  pick(items: SlashItem[], index: number, run: boolean): void {
    const item = items[index];
    if (!item) return;
    this.index = 0;
    this.onPick(item, run);
  }

  /** Handles the keys the open menu owns; true when it did. */
  keydown(e: KeyboardEvent, text: string): boolean {
    const items = this.items(text);
    if (!items.length || e.isComposing) return false;
    const n = items.length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      this.index = (this.index + (e.key === 'ArrowDown' ? 1 : -1) + n) % n;
      this.host.requestUpdate();
    } else if (e.key === 'Escape') {
      // Not the app's Escape (which closes dialogs and the mobile sidebar).
      e.stopPropagation();
      this.close(text);
    } else if (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey)) {
      this.pick(items, Math.min(this.index, n - 1), e.key === 'Enter');
    } else {
      return false;
    }
    e.preventDefault();
    return true;
  }
}
