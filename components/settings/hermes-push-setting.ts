import { LitElement, html } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { browserPushDevice, type PushDevice, type PushState } from './push-device.js';

/** The row's state, shared by its switch and its status line (they render in different cells). */
export class PushSettingModel extends EventTarget {
  state: PushState | null = null;
  busy = false;
  error = '';
  #loaded = false;

  constructor(readonly device: PushDevice = browserPushDevice) {
    super();
  }

  load(): void {
    if (this.#loaded) return;
    this.#loaded = true;
    void this.#run(() => this.device.state());
  }

  set(on: boolean): Promise<void> {
    return this.#run(() => (on ? this.device.enable() : this.device.disable()));
  }

  get status(): string {
    if (this.error) return this.error;
    const s = this.state;
    if (!s) return msg('Checking this device…');
    if (s.note) return s.note;
    return s.subscribed ? msg('On: approvals, answers and task runs reach this device even with the app closed.') : msg('Off for this device.');
  }

  async #run(step: () => Promise<PushState>): Promise<void> {
    this.busy = true;
    this.error = '';
    this.dispatchEvent(new Event('change'));
    try {
      this.state = await step();
    } catch (err) {
      this.error = msg(str`Could not change push notifications: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.busy = false;
      this.dispatchEvent(new Event('change'));
    }
  }
}

let shared: PushSettingModel | undefined;
/** One model per page (the settings dialog renders the row again on every change). */
export const pushSettingModel = (): PushSettingModel => (shared ??= new PushSettingModel());

/**
 * "Notifications on this device": `view="toggle"` is the switch that subscribes this browser
 * to Web Push (so a waiting approval or a finished run reaches it with the app closed) and
 * unsubscribes both sides when turned off; `view="status"` says what is going on. Light DOM,
 * so the dialog's switch styles apply.
 */
@customElement('hermes-push-setting')
@localized()
export class HermesPushSetting extends LitElement {
  @property() view: 'toggle' | 'status' = 'toggle';
  @property({ attribute: false }) model: PushSettingModel = pushSettingModel();
  #bound: PushSettingModel | undefined;
  #onChange = () => this.requestUpdate();

  protected override createRenderRoot() {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#bind();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#bound?.removeEventListener('change', this.#onChange);
    this.#bound = undefined;
  }

  protected override willUpdate(): void {
    this.#bind();
  }

  #bind(): void {
    if (!this.isConnected || this.#bound === this.model) return;
    this.#bound?.removeEventListener('change', this.#onChange);
    this.#bound = this.model;
    this.model.addEventListener('change', this.#onChange);
    this.model.load();
  }

  override render() {
    const m = this.model;
    if (this.view === 'status') return html`<p class="hint meta" data-role="push-status" role="status">${m.status}</p>`;
    return html`<input
      id="push_device"
      data-role="push-toggle"
      type="checkbox"
      role="switch"
      class="switch"
      .checked=${m.state?.subscribed ?? false}
      ?disabled=${m.busy || !m.state?.supported}
      @change=${async (e: Event) => {
        const input = e.target as HTMLInputElement;
        await m.set(input.checked);
        input.checked = m.state?.subscribed ?? false;
      }}
    />`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-push-setting': HermesPushSetting;
  }
}
