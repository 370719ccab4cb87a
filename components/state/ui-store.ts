import { api, ApiError, type Settings } from '../api/client.js';
import { Store } from './store.js';
import { applyLanguage } from '../i18n/localization.js';
import { syncThemeColor } from './theme-color.js';

const PANEL_KEY = 'hermes:workspace-panel-open';
const SIDEBAR_KEY = 'hermes:sidebar-open';

/**
 * Settings and the layout around the chat: theme, skin, font size, panel/sidebar visibility (kept
 * in localStorage and applied before first paint by index.html), and open dialogs.
 */
export class UiStore extends Store {
  settings: Settings | null = null;
  panelOpen = localStorage.getItem(PANEL_KEY) === '1';
  /** On phones the sidebar slides in over the chat. */
  sidebarOpen = localStorage.getItem(SIDEBAR_KEY) !== '0';
  settingsOpen = false;
  toast: { message: string; kind: 'info' | 'error' } | null = null;
  #toastTimer: ReturnType<typeof setTimeout> | null = null;
  #saves = 0;

  async load(): Promise<void> {
    try {
      this.settings = await api.settings();
      this.applyAppearance();
    } catch (err) {
      // Unreachable: the top bar's offline indicator says so; settings load when it is back.
      if (!(err instanceof ApiError && err.status === 0)) this.notify((err as Error).message, 'error');
    }
    this.changed();
  }

  async save(patch: Partial<Settings>): Promise<void> {
    const previous = this.settings;
    const seq = ++this.#saves;
    if (this.settings) this.settings = { ...this.settings, ...patch };
    this.applyAppearance();
    this.changed();
    try {
      const answer = await api.saveSettings(patch);
      // Quick changes overlap: an earlier answer lacks the later change (the latest answer has them all).
      if (seq === this.#saves) this.settings = answer;
    } catch (err) {
      this.settings = previous;
      this.applyAppearance();
      this.notify((err as Error).message, 'error');
    }
    this.changed();
  }

  /** Takes settings the server just answered with (after a password change, say). */
  setSettings(settings: Settings): void {
    this.settings = settings;
    this.applyAppearance();
    this.changed();
  }

  applyAppearance(): void {
    const root = document.documentElement;
    const theme = this.settings?.theme ?? 'dark';
    root.dataset.theme = theme;
    root.dataset.skin = this.settings?.skin ?? 'default';
    root.dataset.fontSize = this.settings?.font_size ?? 'default';
    localStorage.setItem('hermes:theme', theme);
    localStorage.setItem('hermes:skin', root.dataset.skin);
    localStorage.setItem('hermes:font-size', root.dataset.fontSize);
    syncThemeColor();
    void applyLanguage(this.settings?.language);
  }

  togglePanel(open = !this.panelOpen): void {
    this.panelOpen = open;
    localStorage.setItem(PANEL_KEY, open ? '1' : '0');
    this.changed();
  }

  toggleSidebar(open = !this.sidebarOpen): void {
    this.sidebarOpen = open;
    localStorage.setItem(SIDEBAR_KEY, open ? '1' : '0');
    this.changed();
  }

  openSettings(open: boolean): void {
    this.settingsOpen = open;
    this.changed();
  }

  notify(message: string, kind: 'info' | 'error' = 'info'): void {
    this.toast = { message, kind };
    if (this.#toastTimer) clearTimeout(this.#toastTimer);
    this.#toastTimer = setTimeout(
      () => {
        this.toast = null;
        this.changed();
      },
      kind === 'error' ? 8000 : 2800,
    );
    this.changed();
  }
}
