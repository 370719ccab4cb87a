import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { AGENT_PATHS, api, ApiError, type CatalogModel, type OnboardingProvider, type OnboardingStatus, type ProbeResult, type SetupRequest } from '../api/client.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { announceModelsChanged } from '../events.js';
import { MIN_PASSWORD_LENGTH } from '../settings/password-rules.js';
import { gatewayProbeMessage, probeMessage, withCode } from './probe-messages.js';
import { onboardingStyles } from './onboarding-styles.js';

export type Step = 'check' | 'provider' | 'connect' | 'finish';
const STEPS: Array<[Step, string]> = [
  ['check', 'Check'],
  ['provider', 'Provider'],
  ['connect', 'Connect'],
  ['finish', 'Finish'],
];

/** One line under each provider's name. */
const BLURB: Record<string, string> = {
  openrouter: 'Hundreds of models from every lab, with one key.',
  anthropic: 'Claude, directly from Anthropic.',
  openai: 'GPT models, directly from OpenAI.',
  ollama: 'Open models running on this machine.',
  lmstudio: 'Models served by the LM Studio app.',
  custom: 'Any OpenAI-compatible API: vLLM, llama.cpp, TabbyAPI, a proxy…',
  gateway: 'The Hermes you already run answers, through its API server.',
};
/** Where to get a key. */
const KEY_PAGE: Record<string, string> = {
  openrouter: 'https://openrouter.ai/keys',
  anthropic: 'https://console.anthropic.com/settings/keys',
  openai: 'https://platform.openai.com/api-keys',
};
const GROUPS: Array<[OnboardingProvider['group'], string, string]> = [
  ['easy', 'Easy start', 'A hosted provider: paste an API key and pick a model.'],
  ['local', 'Open / self-hosted', 'A model server you run: point Hermes at its address.'],
  ['agent', 'Your Hermes Agent', 'Its own model, tools, memory and skills answer.'],
];
/** The model select's last option: type an id instead. */
const OTHER = '__other__';

type Field = 'base_url' | 'api_key' | 'model' | 'workspace' | 'password' | 'confirm';
type Probe = { state: 'idle' } | { state: 'running' } | { state: 'done'; result: ProbeResult; for: string };

/**
 * The first-run wizard: what the server sees (config, agent, provider, password), a provider,
 * its key or address with a connection test that lists the models, a workspace and an optional
 * password. Done writes it all (POST /api/onboarding/setup) and marks the wizard finished;
 * "Skip" only marks it finished.
 *
 * @fires onboarding-done - detail: { status: OnboardingStatus | null } (finished or skipped: show the chat)
 */
@customElement('hermes-onboarding')
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
  @state() private busy: 'setup' | 'skip' | 'recheck' | null = null;
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

  /** The models the select offers: the tested list, else the provider's well-known ones. */
  #modelChoices(): CatalogModel[] {
    const r = this.#probeResult;
    if (r?.ok) return r.models;
    return (this.provider?.sample_models ?? []).map((id) => ({ id, label: id }));
  }

  /** A Hermes Agent gateway is chosen: no model to pick (its own agent has one). */
  get #gateway(): boolean {
    return this.provider?.id === 'gateway';
  }

  #needsBaseUrl(p: OnboardingProvider): boolean {
    return p.base_url_editable || p.id === 'custom';
  }

  #needsKeyField(p: OnboardingProvider): boolean {
    return p.needs_key || p.key_optional || p.id === 'custom';
  }

  /** Checks the connection fields before asking the server; false (with field errors) when incomplete. */
  #checkConnection(requireModel: boolean): boolean {
    const p = this.provider!;
    const errors: typeof this.errors = {};
    if (this.#needsBaseUrl(p) && !this.baseUrl.trim() && !p.default_base_url) errors.base_url = 'Enter the base URL of the API, e.g. http://127.0.0.1:8000/v1.';
    if (p.needs_key && !p.key_set && !this.apiKey.trim()) errors.api_key = `Paste your ${p.label} API key.`;
    if (requireModel && !this.#gateway && !this.model.trim()) errors.model = 'Choose a model, or type its id.';
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
        ...(this.#needsBaseUrl(p) && this.baseUrl.trim() ? { base_url: this.baseUrl.trim() } : {}),
        ...(this.apiKey.trim() ? { api_key: this.apiKey.trim() } : {}),
      });
    } catch (err) {
      this.probe = { state: 'idle' };
      this.error = (err as Error).message;
      return false;
    }
    let probeFor = key;
    if (result.ok && result.base_url && this.#needsBaseUrl(p) && result.base_url !== this.baseUrl.trim()) {
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
    if (!this.workspace.trim()) errors.workspace = 'Enter a folder for Hermes to work in.';
    if (!this.status.password_enabled && (this.password || this.confirm)) {
      if (this.password.length < MIN_PASSWORD_LENGTH) errors.password = `Use at least ${MIN_PASSWORD_LENGTH} characters, or leave both fields empty.`;
      else if (this.password !== this.confirm) errors.confirm = 'The two passwords do not match.';
    }
    this.errors = errors;
    this.error = '';
    const first = Object.keys(errors)[0];
    if (first) return void this.renderRoot.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
    const p = this.provider!;
    const body: SetupRequest = { provider: p.id, ...(this.#gateway ? {} : { model: this.model.trim() }) };
    if (this.#needsBaseUrl(p) && this.baseUrl.trim()) body.base_url = this.baseUrl.trim();
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
    this.dispatchEvent(new CustomEvent('onboarding-done', { detail: { status }, bubbles: true, composed: true }));
  }

  /** Enter anywhere in a step's fields submits it: one handler per step. */
  #submit(e: SubmitEvent) {
    e.preventDefault();
    if (this.busy) return;
    if (this.step === 'check') this.#go(this.status.config_error ? 'check' : 'provider');
    else if (this.step === 'connect') void this.#connectNext();
    else if (this.step === 'finish') void this.#done();
  }

  override render() {
    const s = this.status;
    if (!s) return nothing;
    return html`<div class="page" data-role="onboarding" data-step=${this.step}>
      <div class="card">
        <header>
          <p class="eyebrow meta">Welcome to ${s.bot_name || 'Hermes'}</p>
          ${s.may_setup ? this.#progress() : nothing}
        </header>
        ${!s.may_setup ? this.#notAllowed() : this.#stepBody()}
        ${this.error ? html`<p class="alert" role="alert" data-role="onboarding-error">${icons.alert()}<span>${this.error}</span></p>` : nothing}
        ${s.may_setup
          ? html`<footer class="quiet">
              <button type="button" class="link" data-role="onboarding-skip" ?disabled=${!!this.busy} @click=${() => this.#skip()}>
                ${this.busy === 'skip' ? 'Skipping…' : 'Skip setup — I’ll edit config.yaml myself'}
              </button>
            </footer>`
          : nothing}
      </div>
    </div>`;
  }

  #progress() {
    const at = STEPS.findIndex(([id]) => id === this.step);
    return html`<ol class="steps" aria-label="Setup steps">
      ${STEPS.map(([id, label], i) => html`<li aria-current=${id === this.step ? 'step' : nothing} ?data-done=${i < at}><span class="dot" aria-hidden="true">${i < at ? icons.check() : i + 1}</span><span class="step-label">${label}</span></li>`)}
    </ol>`;
  }

  #stepBody(): TemplateResult {
    switch (this.step) {
      case 'check':
        return this.#checkStep();
      case 'provider':
        return this.#providerStep();
      case 'connect':
        return this.#connectStep();
      case 'finish':
        return this.#finishStep();
    }
  }

  #notAllowed() {
    const s = this.status;
    return html`<section class="step" data-role="onboarding-not-allowed">
      <h2 tabindex="-1">Finish setting up on the server’s machine</h2>
      <p class="lead">
        This browser is connecting from another address and Hermes has no password yet, so it does not accept setup from here:
        whoever can reach this address could otherwise run commands on that machine.
      </p>
      <ul class="options-list">
        <li>open <span class="mono">http://127.0.0.1:${location.port || '8787'}</span> in a browser on the machine it runs on and set it up there, or</li>
        <li>set <span class="mono">HERMES_WEBUI_PASSWORD</span> in its environment, restart it, and sign in here.</li>
      </ul>
      <p class="meta">Configuration: <span class="mono">${s.config_path}</span></p>
      <div class="actions">
        <button type="button" class="outline" data-role="onboarding-continue" @click=${() => this.#finish(null)}>Continue without setting up</button>
      </div>
    </section>`;
  }

  #checkStep() {
    const s = this.status;
    const p = s.provider;
    const current = s.providers.find((x) => x.id === p.id);
    return html`<form class="step" @submit=${this.#submit} novalidate>
      <h2 tabindex="-1">Let’s get you to a first chat</h2>
      <p class="lead">This is what Hermes sees on this machine. Nothing is written until you press Done.</p>
      ${s.config_error
        ? html`<div class="problem" role="alert" data-role="config-error">
            <p class="problem-title">${icons.alert()} <strong>config.yaml cannot be read</strong></p>
            <pre class="mono">${s.config_error}</pre>
            <p>In <span class="mono">${s.config_path}</span>. Hermes did not change the file and will not overwrite it: fix the line above (or move the file aside), then check again.</p>
          </div>`
        : nothing}
      <dl class="facts" data-role="onboarding-facts">
        <div>
          <dt>Configuration</dt>
          <dd><span class="mono path" title=${s.config_path}>${s.config_path}</span> <span class="meta">${s.config_error ? 'has an error' : s.config_exists ? 'found' : 'not created yet'}</span></dd>
        </div>
        <div>
          <dt>Keys</dt>
          <dd><span class="mono path" title=${s.env_path}>${s.env_path}</span></dd>
        </div>
        <div>
          <dt>Agent</dt>
          <dd>
            ${s.backend === 'gateway'
              ? html`Hermes Agent${s.gateway_base_url ? html` at <span class="mono">${s.gateway_base_url}</span>` : nothing}`
              : html`${s.agent_runtime === 'builtin' ? 'Built-in agent' : s.agent_runtime} <span class="state ok">${icons.check()} ready</span>`}
          </dd>
        </div>
        <div>
          <dt>Provider</dt>
          <dd data-role="provider-state">
            ${p.usable
              ? html`${current?.label ?? p.id}${s.default_model ? html` · <span class="mono">${s.default_model}</span>` : nothing} <span class="state ok">${icons.check()} works</span>`
              : p.id
                ? html`${current?.label ?? p.id} <span class="state warn">${p.error ?? 'not usable yet'}</span>`
                : html`<span class="state warn">None configured yet</span>`}
          </dd>
        </div>
        <div>
          <dt>Password</dt>
          <dd data-role="password-state">
            ${s.password_enabled
              ? html`<span class="state ok">${icons.check()} set</span>`
              : html`<span class="muted">Not set — fine while only this machine can reach Hermes.</span>`}
          </dd>
        </div>
      </dl>
      <div class="actions">
        ${s.config_error
          ? html`<button type="button" class="primary" data-role="onboarding-recheck" ?disabled=${!!this.busy} @click=${() => this.#recheck()}>${this.busy === 'recheck' ? 'Checking…' : 'Check again'}</button>`
          : p.usable
            ? html`<button type="button" class="outline" data-role="onboarding-next" @click=${() => this.#go('provider')}>Choose another provider</button>
                <button type="button" class="primary" data-role="onboarding-start" ?disabled=${!!this.busy} @click=${() => this.#skip()}>Start chatting</button>`
            : html`<button type="submit" class="primary" data-role="onboarding-next">Choose a provider</button>`}
      </div>
    </form>`;
  }

  #providerStep() {
    const s = this.status;
    return html`<section class="step">
      <h2 tabindex="-1">Where should answers come from?</h2>
      ${GROUPS.map(([group, title, hint]) => {
        // The gateway is a choice only where HERMES_WEBUI_CHAT_BACKEND does not decide (the server then lists none).
        const options = s.providers.filter((p) => p.group === group && !(p.id === 'gateway' && s.backend_fixed));
        if (!options.length) return nothing;
        return html`<div class="group" role="group" aria-labelledby=${`group-${group}`}>
          <h3 id=${`group-${group}`}><span class="group-title">${title}</span> <span class="meta">${hint}</span></h3>
          <div class="options">
            ${options.map(
              (p) => html`<button
                type="button"
                class="option"
                data-role="provider-option"
                data-provider=${p.id}
                aria-pressed=${this.provider?.id === p.id ? 'true' : 'false'}
                @click=${() => this.#choose(p)}
              >
                <span class="option-title">${p.label}${p.key_set ? html`<span class="badge">key found</span>` : nothing}</span>
                <span class="option-blurb meta">${BLURB[p.id] ?? ''}</span>
              </button>`,
            )}
          </div>
        </div>`;
      })}
      <div class="actions">
        <button type="button" data-role="onboarding-back" @click=${() => this.#go('check')}>Back</button>
      </div>
    </section>`;
  }

  #connectStep() {
    const p = this.provider!;
    if (p.id === 'gateway') return this.#gatewayStep(p);
    const result = this.#probeResult;
    const running = this.probe.state === 'running';
    const models = this.#modelChoices();
    const inList = models.some((m) => m.id === this.model);
    const showTyped = this.typing || !models.length || (!!this.model && !inList);
    return html`<form class="step" @submit=${this.#submit} novalidate>
      <h2 tabindex="-1">${p.id === 'custom' ? 'Connect your OpenAI-compatible server' : `Connect ${p.label}`}</h2>
      ${p.group === 'local'
        ? html`<p class="lead">Point Hermes at the server’s OpenAI-compatible API root — usually ending in <span class="mono">/v1</span>.</p>`
        : html`<p class="lead">
            Paste an API key${KEY_PAGE[p.id] ? html` (from <a href=${KEY_PAGE[p.id]!} target="_blank" rel="noopener noreferrer">${new URL(KEY_PAGE[p.id]!).host}</a>)` : nothing}. It is saved in
            <span class="mono">${this.status.env_path}</span> and never shown again.
          </p>`}
      <div class="fields">
        ${this.#needsBaseUrl(p)
          ? this.#input('base_url', 'Base URL', this.baseUrl, (v) => (this.baseUrl = v), {
              type: 'url',
              placeholder: p.default_base_url ?? 'http://127.0.0.1:8000/v1',
              hint: html`From inside Docker, <span class="mono">localhost</span> is the container itself: use <span class="mono">host.docker.internal</span> (Linux: <span class="mono">api.local</span> with <span class="mono">extra_hosts: "api.local:host-gateway"</span>).`,
              mono: true,
            })
          : nothing}
        ${this.#needsKeyField(p)
          ? this.#input('api_key', p.needs_key ? 'API key' : 'API key (optional)', this.apiKey, (v) => (this.apiKey = v), {
              type: 'password',
              placeholder: p.key_set ? 'A saved key was found — leave empty to keep it' : p.needs_key ? 'Paste the key' : 'Only if the server asks for one',
              hint: p.key_env ? html`Saved as <span class="mono">${p.key_env}</span>.` : nothing,
              mono: true,
            })
          : nothing}
        <div class="probe-row">
          <button type="button" class="outline" data-role="probe" ?disabled=${running} @click=${() => void this.#runProbe()}>
            ${running ? html`${icons.spinner()} Testing…` : 'Test connection'}
          </button>
          ${result?.ok
            ? html`<span class="state ok" role="status" data-role="probe-ok">${icons.check()} Connected — ${result.models.length === 1 ? '1 model' : `${result.models.length} models`}</span>`
            : html`<span class="meta" role="status">${running ? 'Asking for its model list…' : !result ? 'Lists the models it offers.' : ''}</span>`}
        </div>
        ${result && !result.ok
          ? html`<div class="problem" role="alert" data-role="probe-error" data-kind=${result.error}>
              <p>${probeMessage(result, this.baseUrl || (p.default_base_url ?? ''), p.label)}</p>
              ${result.detail ? html`<p class="meta mono detail">${result.detail}</p>` : nothing}
              ${this.unverified ? html`<p class="meta">Press Continue again to use these settings anyway.</p>` : nothing}
            </div>`
          : nothing}
        <div class="field">
          <label for="model-select">Model</label>
          ${models.length
            ? html`<select
                id="model-select"
                name=${showTyped ? 'model-choice' : 'model'}
                data-role="model-select"
                aria-invalid=${this.errors.model && !showTyped ? 'true' : 'false'}
                aria-describedby="model-error"
                @change=${(e: Event) => {
                  const v = (e.target as HTMLSelectElement).value;
                  this.typing = v === OTHER;
                  this.model = v === OTHER ? '' : v;
                  this.errors = { ...this.errors, model: undefined };
                  if (this.typing) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('[data-role="model-input"]')?.focus());
                }}
              >
                ${models.map((m) => html`<option value=${m.id} ?selected=${!showTyped && m.id === this.model}>${m.label !== m.id ? `${m.label} — ${m.id}` : m.id}</option>`)}
                <option value=${OTHER} ?selected=${showTyped}>Another model id…</option>
              </select>`
            : nothing}
          ${showTyped
            ? html`<input
                id=${models.length ? 'model-input' : 'model-select'}
                name="model"
                class="mono"
                data-role="model-input"
                aria-label=${models.length ? 'Model id' : nothing}
                placeholder=${p.id === 'openrouter' ? 'anthropic/claude-sonnet-4.6' : 'The model’s id, as the server names it'}
                autocomplete="off"
                spellcheck="false"
                .value=${this.model}
                aria-invalid=${this.errors.model ? 'true' : 'false'}
                aria-describedby="model-error"
                @input=${(e: Event) => {
                  this.model = (e.target as HTMLInputElement).value;
                  this.errors = { ...this.errors, model: undefined };
                }}
              />`
            : nothing}
          <p class="field-error" id="model-error" role="alert">${this.errors.model ?? nothing}</p>
          ${!result?.ok && models.length ? html`<p class="hint meta">Test the connection to see every model ${p.label} offers.</p>` : nothing}
        </div>
      </div>
      <div class="actions">
        <button type="button" data-role="onboarding-back" @click=${() => this.#go('provider')}>Back</button>
        <button type="submit" class="primary" data-role="onboarding-next" ?disabled=${running}>${this.unverified ? 'Continue anyway' : 'Continue'}</button>
      </div>
    </form>`;
  }

  /** Connect, for a Hermes Agent gateway: its API server's address, an optional key, a test; no model to pick. */
  #gatewayStep(p: OnboardingProvider) {
    const result = this.#probeResult;
    const running = this.probe.state === 'running';
    const agent = result?.ok ? result.agent : undefined;
    const via = agent?.path ? (AGENT_PATHS[agent.path] ?? agent.path) : null;
    return html`<form class="step" @submit=${this.#submit} novalidate>
      <h2 tabindex="-1">Connect your Hermes Agent</h2>
      <p class="lead">
        Hermes’ API server answers here: set <span class="mono">API_SERVER_ENABLED=true</span> (and an <span class="mono">API_SERVER_KEY</span>) in
        <span class="mono">~/.hermes/.env</span>, then run <span class="mono">hermes gateway</span>. Its model, tools, memory and approval rules are used.
      </p>
      <div class="fields">
        ${this.#input('base_url', 'API server URL', this.baseUrl, (v) => (this.baseUrl = v), {
          type: 'url',
          placeholder: p.default_base_url ?? 'http://127.0.0.1:8642',
          hint: html`Hermes logs it as <span class="mono">API server listening on …</span>. From inside Docker, use <span class="mono">host.docker.internal</span> instead of <span class="mono">127.0.0.1</span>.`,
          mono: true,
        })}
        ${this.#input('api_key', 'API key (optional)', this.apiKey, (v) => (this.apiKey = v), {
          type: 'password',
          placeholder: 'Its API_SERVER_KEY, if it has one',
          hint: html`Saved as <span class="mono">${p.key_env ?? 'HERMES_WEBUI_GATEWAY_API_KEY'}</span>. Left empty, Hermes’ own <span class="mono">API_SERVER_KEY</span> is used when this server can read it.`,
          mono: true,
        })}
        <div class="probe-row">
          <button type="button" class="outline" data-role="probe" ?disabled=${running} @click=${() => void this.#runProbe()}>
            ${running ? html`${icons.spinner()} Testing…` : 'Test connection'}
          </button>
          ${result?.ok
            ? html`<span class="state ok" role="status" data-role="probe-ok">${icons.check()} Connected — ${agent?.label ?? 'Hermes Agent'}${via ? ` · ${via}` : ''}</span>`
            : html`<span class="meta" role="status">${running ? 'Asking Hermes what it offers…' : !result ? 'Checks it answers, and how.' : ''}</span>`}
        </div>
        ${result?.ok
          ? html`<div class="agent-facts meta" data-role="probe-agent">
              ${result.models.length
                ? html`<p>Model: <span class="mono">${result.models.map((m) => m.id).join(', ')}</span> — chosen by your Hermes.</p>`
                : html`<p>Your Hermes chooses the model.</p>`}
              ${agent?.limitations.length
                ? html`<ul class="limits" data-role="probe-limitations" aria-label="What this path cannot do">
                    ${agent.limitations.map((l) => html`<li>${l}</li>`)}
                  </ul>`
                : nothing}
            </div>`
          : nothing}
        ${result && !result.ok
          ? html`<div class="problem" role="alert" data-role="probe-error" data-kind=${result.error}>
              <p>${withCode(gatewayProbeMessage(result, this.baseUrl || (p.default_base_url ?? '')))}</p>
              ${result.detail ? html`<p class="meta mono detail">${result.detail}</p>` : nothing}
              ${this.unverified ? html`<p class="meta">Press Continue again to use these settings anyway.</p>` : nothing}
            </div>`
          : nothing}
      </div>
      <div class="actions">
        <button type="button" data-role="onboarding-back" @click=${() => this.#go('provider')}>Back</button>
        <button type="submit" class="primary" data-role="onboarding-next" ?disabled=${running}>${this.unverified ? 'Continue anyway' : 'Continue'}</button>
      </div>
    </form>`;
  }

  #finishStep() {
    const s = this.status;
    return html`<form class="step" @submit=${this.#submit} novalidate>
      <h2 tabindex="-1">A folder, and a lock if you want one</h2>
      <div class="fields">
        ${this.#input('workspace', 'Workspace', this.workspace, (v) => (this.workspace = v), {
          hint: 'The folder new chats work in: Hermes reads and writes files here.',
          mono: true,
          list: s.workspaces.length ? 'workspaces' : undefined,
          role: 'workspace',
        })}
        ${s.workspaces.length ? html`<datalist id="workspaces">${s.workspaces.map((w) => html`<option value=${w.path}>${w.name}</option>`)}</datalist>` : nothing}
        ${s.password_enabled
          ? html`<p class="meta" data-role="password-already">${icons.check()} A password is already set; change it later in Settings → Security.</p>`
          : html`<fieldset class="password">
              <legend>Password <span class="meta">(optional)</span></legend>
              <p class="hint meta">Leave empty while only this machine can reach Hermes. Set one before opening it to a phone, your network or the internet.</p>
              ${this.#input('password', 'Password', this.password, (v) => (this.password = v), { type: 'password', autocomplete: 'new-password', hint: `At least ${MIN_PASSWORD_LENGTH} characters.`, role: 'password' })}
              ${this.#input('confirm', 'Confirm password', this.confirm, (v) => (this.confirm = v), { type: 'password', autocomplete: 'new-password', role: 'password-confirm' })}
            </fieldset>`}
      </div>
      <p class="summary meta" data-role="onboarding-summary">
        ${this.provider?.label}${this.#gateway ? nothing : html` · <span class="mono">${this.model}</span>`}${this.provider && this.#needsBaseUrl(this.provider) && this.baseUrl ? html` · <span class="mono">${this.baseUrl}</span>` : nothing}
      </p>
      <div class="actions">
        <button type="button" data-role="onboarding-back" @click=${() => this.#go('connect')}>Back</button>
        <button type="submit" class="primary" data-role="onboarding-done" ?disabled=${!!this.busy}>${this.busy === 'setup' ? 'Saving…' : 'Done — start chatting'}</button>
      </div>
    </form>`;
  }

  #input(
    name: Field,
    label: string,
    value: string,
    set: (v: string) => void,
    o: { type?: string; placeholder?: string; hint?: unknown; mono?: boolean; autocomplete?: string; list?: string; role?: string } = {},
  ) {
    const error = this.errors[name];
    return html`<div class="field">
      <label for=${name}>${label}</label>
      <input
        id=${name}
        name=${name}
        type=${o.type ?? 'text'}
        class=${o.mono ? 'mono' : ''}
        data-role=${o.role ?? name.replace('_', '-')}
        placeholder=${o.placeholder ?? nothing}
        autocomplete=${o.autocomplete ?? 'off'}
        list=${o.list ?? nothing}
        spellcheck="false"
        .value=${value}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${`${name}-error ${name}-hint`}
        @input=${(e: Event) => {
          set((e.target as HTMLInputElement).value);
          if (this.errors[name]) this.errors = { ...this.errors, [name]: undefined };
        }}
      />
      <p class="field-error" id=${`${name}-error`} role="alert">${error ?? nothing}</p>
      ${o.hint ? html`<p class="hint meta" id=${`${name}-hint`}>${o.hint}</p>` : nothing}
    </div>`;
  }

  static override styles = [baseStyles, onboardingStyles];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-onboarding': HermesOnboarding;
  }
  interface HTMLElementEventMap {
    'onboarding-done': CustomEvent<{ status: OnboardingStatus | null }>;
  }
}
