import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { api, type ApiError, type CatalogModel, type OnboardingProvider, type OnboardingStatus, type ProbeResult, type SetupRequest } from '../api/client.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { announceModelsChanged } from '../events.js';
import { MIN_PASSWORD_LENGTH } from '../settings/password-rules.js';
import { onboardingStyles } from './onboarding-styles.js';
import { needsBaseUrl, type Busy, type Field, type Probe, type Step, type WizardView } from './wizard-view.js';
import { renderCheckStep, renderNotAllowed } from './check-step.js';
import { renderProviderStep } from './provider-step.js';
import { renderConnectStep } from './connect-step.js';
import { renderFinishStep } from './finish-step.js';
import { emit } from '../events.js';
import { providerLabel } from '../settings/provider-labels.js';

export type { Step } from './wizard-view.js';
/** The steps and their names in the progress bar (read at render time, in the current language). */
const steps = (): Array<[Step, string]> => [
  ['check', msg('Check')],
  ['provider', msg('Provider')],
  ['connect', msg('Connect')],
  ['finish', msg('Finish')],
];

/**
 * The first-run wizard: what the server sees (config, agent, provider, password), a provider,
 * its key or address with a connection test that lists the models, a workspace and an optional
 * password. Done writes it all (POST /api/onboarding/setup) and marks the wizard finished;
 * "Skip" only marks it finished.
 *
 * @fires hermes-onboarding-done - detail: { status: OnboardingStatus | null } (finished or skipped: show the chat)
 */
@customElement('hermes-onboarding')
@localized()
export class HermesOnboarding extends LitElement {
  @property({ attribute: false }) status!: OnboardingStatus;

  @state() step: Step = 'check';
  @state() provider: OnboardingProvider | null = null;
  @state() private baseUrl = '';
  @state() private apiKey = '';
  @state() private model = '';
  /** "Other model id…" is chosen: the text field holds the model. */
  @state() private typing = false;
  @state() private probe: Probe = { state: 'idle' };
  /** The last test failed and the person was told: Continue now goes on regardless. */
  @state() private unverified = false;
  @state() private workspace = '';
  @state() private password = '';
  @state() private confirm = '';
  @state() private busy: Busy = null;
  @state() private errors: Partial<Record<Field, string>> = {};
  /** A failure not about one field (a refusal, the server unreachable). */
  @state() private error = '';

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('status') && this.status) {
      if (!this.workspace) this.workspace = this.status.default_workspace ?? '';
      if (!this.provider) {
        const current = this.status.providers.find((p) => p.id === this.status.provider.id);
        if (current) this.#choose(current, false);
      }
    }
  }

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('step') && changed.get('step') !== undefined) this.#focusStep();
  }

  /** After a step change: the first field (or the chosen option), else the heading. */
  #focusStep() {
    const root = this.renderRoot;
    const target =
      root.querySelector<HTMLElement>('[data-role="provider-option"][aria-pressed="true"]') ??
      root.querySelector<HTMLElement>('[data-role="provider-option"]') ??
      root.querySelector<HTMLElement>('form input:not([type="hidden"]), form select') ??
      root.querySelector<HTMLElement>('h2');
    target?.focus();
  }

  #go(step: Step) {
    this.error = '';
    this.errors = {};
    this.step = step;
  }

  #choose(p: OnboardingProvider, advance = true) {
    if (this.provider?.id !== p.id) {
      this.provider = p;
      this.baseUrl = p.default_base_url ?? '';
      this.apiKey = '';
      this.probe = { state: 'idle' };
      this.unverified = false;
      const preferred = this.status.provider.id === p.id && this.status.default_model ? this.status.default_model : (p.sample_models[0] ?? '');
      this.model = preferred;
      this.typing = !preferred;
    }
    if (advance) this.#go('connect');
  }

  /** What a probe result belongs to: a result for other inputs is stale. */
  get #probeKey(): string {
    return `${this.provider?.id}|${this.baseUrl.trim()}|${this.apiKey.trim()}`;
  }

  get #probeResult(): ProbeResult | null {
    return this.probe.state === 'done' && this.probe.for === this.#probeKey ? this.probe.result : null;
  }

  /** A Hermes Agent gateway is chosen: no model to pick (its own agent has one). */
  get #gateway(): boolean {
    return this.provider?.id === 'gateway';
  }

  /** Checks the connection fields before asking the server; false (with field errors) when incomplete. */
  #checkConnection(requireModel: boolean): boolean {
    const p = this.provider!;
    const errors: typeof this.errors = {};
    if (needsBaseUrl(p) && !this.baseUrl.trim() && !p.default_base_url) errors.base_url = msg('Enter the base URL of the API, e.g. http://127.0.0.1:8000/v1.');
    if (p.needs_key && !p.key_set && !this.apiKey.trim()) errors.api_key = msg(str`Paste your ${providerLabel(p)} API key.`);
    if (requireModel && !this.#gateway && !this.model.trim()) errors.model = msg('Choose a model, or type its id.');
    this.errors = errors;
    const first = Object.keys(errors)[0];
    if (first) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`[name="${first}"]`)?.focus());
    return !first;
  }

  /** Runs the connection test; resolves true when the provider listed its models. */
  async #runProbe(): Promise<boolean> {
    const p = this.provider;
    if (!p || this.probe.state === 'running') return false;
    if (!this.#checkConnection(false)) return false;
    const key = this.#probeKey;
    this.probe = { state: 'running' };
    this.error = '';
    let result: ProbeResult;
    try {
      result = await api.probe({
        provider: p.id,
        ...(needsBaseUrl(p) && this.baseUrl.trim() ? { base_url: this.baseUrl.trim() } : {}),
        ...(this.apiKey.trim() ? { api_key: this.apiKey.trim() } : {}),
      });
    } catch (err) {
      this.probe = { state: 'idle' };
      this.error = (err as Error).message;
      return false;
    }
    let probeFor = key;
    if (result.ok && result.base_url && needsBaseUrl(p) && result.base_url !== this.baseUrl.trim()) {
      // The server found the API root (…/v1): keep the address that worked.
      this.baseUrl = result.base_url;
      probeFor = this.#probeKey;
    }
    this.probe = { state: 'done', result, for: probeFor };
    this.unverified = false;
    if (result.ok && !this.#gateway) this.#pickModelFrom(result.models);
    return result.ok;
  }

  /** After a test: keep the chosen model if offered, else the configured default, a well-known one, the first. */
  #pickModelFrom(models: CatalogModel[]) {
    if (!models.length) return;
    const ids = new Set(models.map((m) => m.id));
    if (this.model && ids.has(this.model)) return (this.typing = false);
    if (this.typing && this.model.trim()) return;
    const preferred = [this.status.default_model, ...(this.provider?.sample_models ?? [])].find((id) => id && ids.has(id));
    this.model = preferred ?? models[0]!.id;
    this.typing = false;
  }

  async #connectNext() {
    if (!this.#checkConnection(false)) return;
    const tested = this.#probeResult;
    if (!tested?.ok && !this.unverified) {
      const ok = await this.#runProbe();
      if (!ok) {
        // Told why; a second Continue goes on (some servers list no models, keys may be scoped).
        if (this.probe.state === 'done') this.unverified = true;
        return;
      }
    }
    if (!this.#checkConnection(true)) return;
    this.#go('finish');
  }

  async #done() {
    if (this.busy) return;
    const errors: typeof this.errors = {};
    if (!this.workspace.trim()) errors.workspace = msg('Enter a folder for Hermes to work in.');
    if (!this.status.password_enabled && (this.password || this.confirm)) {
      if (this.password.length < MIN_PASSWORD_LENGTH)
        errors.password = msg(str`Use at least ${formatNumber(MIN_PASSWORD_LENGTH)} characters, or leave both fields empty.`);
      else if (this.password !== this.confirm) errors.confirm = msg('The two passwords do not match.');
    }
    this.errors = errors;
    this.error = '';
    const first = Object.keys(errors)[0];
    if (first) return void this.renderRoot.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
    const p = this.provider!;
    const body: SetupRequest = { provider: p.id, ...(this.#gateway ? {} : { model: this.model.trim() }) };
    if (needsBaseUrl(p) && this.baseUrl.trim()) body.base_url = this.baseUrl.trim();
    if (this.apiKey.trim()) body.api_key = this.apiKey.trim();
    if (this.workspace.trim()) body.workspace = this.workspace.trim();
    if (!this.status.password_enabled && this.password) body.password = this.password;
    this.busy = 'setup';
    let status: OnboardingStatus;
    try {
      status = await api.setup(body);
    } catch (err) {
      this.busy = null;
      return this.#setupFailed(err as ApiError);
    }
    // Written; marking the wizard done is a formality (it would only show again).
    await api.completeOnboarding().catch(() => {});
    announceModelsChanged();
    this.busy = null;
    this.#finish(status);
  }

  /** Puts a refusal where it belongs: a field of this step, the connection step, or the top. */
  #setupFailed(err: ApiError) {
    const message = err.message;
    // 400: a field is wrong; 403 may be a refused workspace (a system folder) or setup refused here.
    if (err.status === 400 || err.status === 403) {
      const lower = message.toLowerCase();
      const fields: Field[] = err.status === 403 ? ['workspace'] : ['workspace', 'password', 'base_url', 'api_key', 'model'];
      const field = fields.find((f) => lower.includes(f) || lower.includes(f.replace('_', ' ')));
      if (field === 'base_url' || field === 'api_key' || field === 'model') {
        this.#go('connect');
        this.errors = { [field]: message };
        return;
      }
      if (field) {
        this.errors = { [field]: message };
        return void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`[name="${field}"]`)?.focus());
      }
    }
    this.error = message;
  }

  async #skip() {
    if (this.busy) return;
    this.busy = 'skip';
    try {
      await api.completeOnboarding();
    } catch {
      // Not allowed from here, or unreachable: the wizard shows again next time; go on now.
    }
    this.busy = null;
    this.#finish(null);
  }

  /** After fixing config.yaml: ask the server again. */
  async #recheck() {
    this.busy = 'recheck';
    try {
      this.status = await api.onboardingStatus();
      this.error = '';
    } catch (err) {
      this.error = (err as Error).message;
    }
    this.busy = null;
  }

  #finish(status: OnboardingStatus | null) {
    emit(this, 'hermes-onboarding-done', { status });
  }

  /** Enter anywhere in a step's fields submits it: one handler per step. */
  #submit(e: SubmitEvent) {
    e.preventDefault();
    if (this.busy) return;
    if (this.step === 'check') this.#go(this.status.config_error ? 'check' : 'provider');
    else if (this.step === 'connect') void this.#connectNext();
    else if (this.step === 'finish') void this.#done();
  }

  /** The step templates' window on this element: reads and writes go straight to its state. */
  #view: WizardView = ((el: HermesOnboarding): WizardView => ({
    get status() {
      return el.status;
    },
    get provider() {
      return el.provider;
    },
    get baseUrl() {
      return el.baseUrl;
    },
    set baseUrl(v) {
      el.baseUrl = v;
    },
    get apiKey() {
      return el.apiKey;
    },
    set apiKey(v) {
      el.apiKey = v;
    },
    get model() {
      return el.model;
    },
    set model(v) {
      el.model = v;
    },
    get typing() {
      return el.typing;
    },
    set typing(v) {
      el.typing = v;
    },
    get probe() {
      return el.probe;
    },
    get probeResult() {
      return el.#probeResult;
    },
    get unverified() {
      return el.unverified;
    },
    get workspace() {
      return el.workspace;
    },
    set workspace(v) {
      el.workspace = v;
    },
    get password() {
      return el.password;
    },
    set password(v) {
      el.password = v;
    },
    get confirm() {
      return el.confirm;
    },
    set confirm(v) {
      el.confirm = v;
    },
    get busy() {
      return el.busy;
    },
    get errors() {
      return el.errors;
    },
    set errors(v) {
      el.errors = v;
    },
    get gateway() {
      return el.#gateway;
    },
    go: (step) => el.#go(step),
    choose: (p) => el.#choose(p),
    submit: (e) => el.#submit(e),
    runProbe: () => void el.#runProbe(),
    skip: () => void el.#skip(),
    recheck: () => void el.#recheck(),
    leave: () => el.#finish(null),
    focusAfterUpdate: (selector) => void el.updateComplete.then(() => el.renderRoot.querySelector<HTMLElement>(selector)?.focus()),
  }))(this);

  override render() {
    const s = this.status;
    if (!s) return nothing;
    return html`<div class="page" data-role="onboarding" data-step=${this.step}>
      <div class="card">
        <header>
          <p class="eyebrow meta">${msg(str`Welcome to ${s.bot_name || 'Hermes'}`)}</p>
          ${s.may_setup ? this.#progress() : nothing}
        </header>
        ${!s.may_setup ? renderNotAllowed(this.#view) : this.#stepBody()}
        ${this.error ? html`<p class="alert" role="alert" data-role="onboarding-error">${icons.alert()}<span>${this.error}</span></p>` : nothing}
        ${
          s.may_setup
            ? html`<footer class="quiet">
              <button type="button" class="link" data-role="onboarding-skip" ?disabled=${!!this.busy} @click=${() => this.#skip()}>
                ${this.busy === 'skip' ? msg('Skipping…') : msg('Skip setup — I’ll edit config.yaml myself')}
              </button>
            </footer>`
            : nothing
        }
      </div>
    </div>`;
  }

  #progress() {
    const all = steps();
    const at = all.findIndex(([id]) => id === this.step);
    return html`<ol class="steps" aria-label=${msg('Setup steps')}>
      ${all.map(([id, label], i) => html`<li aria-current=${id === this.step ? 'step' : nothing} ?data-done=${i < at}><span class="dot" aria-hidden="true">${i < at ? icons.check() : formatNumber(i + 1)}</span><span class="step-label">${label}</span></li>`)}
    </ol>`;
  }

  #stepBody(): TemplateResult {
    switch (this.step) {
      case 'check':
        return renderCheckStep(this.#view);
      case 'provider':
        return renderProviderStep(this.#view);
      case 'connect':
        return renderConnectStep(this.#view);
      case 'finish':
        return renderFinishStep(this.#view);
    }
  }

  static override styles = [baseStyles, onboardingStyles];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-onboarding': HermesOnboarding;
  }
}
