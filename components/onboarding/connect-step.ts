import { html, nothing, type TemplateResult } from 'lit';
import { AGENT_PATHS, type CatalogModel, type OnboardingProvider } from '../api/client.js';
import { icons } from '../shared/icons.js';
import { gatewayProbeMessage, probeMessage, withCode } from './probe-messages.js';
import { input, needsBaseUrl, needsKeyField, type WizardView } from './wizard-view.js';

/** Where to get a key. */
const KEY_PAGE: Record<string, string> = {
  openrouter: 'https://openrouter.ai/keys',
  anthropic: 'https://console.anthropic.com/settings/keys',
  openai: 'https://platform.openai.com/api-keys',
};
/** The model select's last option: type an id instead. */
const OTHER = '__other__';

/** The models the select offers: the tested list, else the provider's well-known ones. */
function modelChoices(w: WizardView): CatalogModel[] {
  const r = w.probeResult;
  if (r?.ok) return r.models;
  return (w.provider?.sample_models ?? []).map((id) => ({ id, label: id }));
}

/** Step 3: the provider's address and key, a connection test, and the model. */
export function renderConnectStep(w: WizardView): TemplateResult {
  const p = w.provider!;
  if (p.id === 'gateway') return renderGatewayStep(w, p);
  const result = w.probeResult;
  const running = w.probe.state === 'running';
  const models = modelChoices(w);
  const inList = models.some((m) => m.id === w.model);
  const showTyped = w.typing || !models.length || (!!w.model && !inList);
  return html`<form class="step" @submit=${w.submit} novalidate>
    <h2 tabindex="-1">${p.id === 'custom' ? 'Connect your OpenAI-compatible server' : `Connect ${p.label}`}</h2>
    ${
      p.group === 'local'
        ? html`<p class="lead">Point Hermes at the server’s OpenAI-compatible API root — usually ending in <span class="mono">/v1</span>.</p>`
        : html`<p class="lead">
          Paste an API key${KEY_PAGE[p.id] ? html` (from <a href=${KEY_PAGE[p.id]!} target="_blank" rel="noopener noreferrer">${new URL(KEY_PAGE[p.id]!).host}</a>)` : nothing}. It is saved in
          <span class="mono">${w.status.env_path}</span> and never shown again.
        </p>`
    }
    <div class="fields">
      ${
        needsBaseUrl(p)
          ? input(w, 'base_url', 'Base URL', w.baseUrl, (v) => (w.baseUrl = v), {
              type: 'url',
              placeholder: p.default_base_url ?? 'http://127.0.0.1:8000/v1',
              hint: html`From inside Docker, <span class="mono">localhost</span> is the container itself: use <span class="mono">host.docker.internal</span> (Linux: <span class="mono">api.local</span> with <span class="mono">extra_hosts: "api.local:host-gateway"</span>).`,
              mono: true,
            })
          : nothing
      }
      ${
        needsKeyField(p)
          ? input(w, 'api_key', p.needs_key ? 'API key' : 'API key (optional)', w.apiKey, (v) => (w.apiKey = v), {
              type: 'password',
              placeholder: p.key_set ? 'A saved key was found — leave empty to keep it' : p.needs_key ? 'Paste the key' : 'Only if the server asks for one',
              hint: p.key_env ? html`Saved as <span class="mono">${p.key_env}</span>.` : nothing,
              mono: true,
            })
          : nothing
      }
      <div class="probe-row">
        <button type="button" class="outline" data-role="probe" ?disabled=${running} @click=${() => void w.runProbe()}>
          ${running ? html`${icons.spinner()} Testing…` : 'Test connection'}
        </button>
        ${
          result?.ok
            ? html`<span class="state ok" role="status" data-role="probe-ok">${icons.check()} Connected — ${result.models.length === 1 ? '1 model' : `${result.models.length} models`}</span>`
            : html`<span class="meta" role="status">${running ? 'Asking for its model list…' : !result ? 'Lists the models it offers.' : ''}</span>`
        }
      </div>
      ${
        result && !result.ok
          ? html`<div class="problem" role="alert" data-role="probe-error" data-kind=${result.error}>
            <p>${probeMessage(result, w.baseUrl || (p.default_base_url ?? ''), p.label)}</p>
            ${result.detail ? html`<p class="meta mono detail">${result.detail}</p>` : nothing}
            ${w.unverified ? html`<p class="meta">Press Continue again to use these settings anyway.</p>` : nothing}
          </div>`
          : nothing
      }
      <div class="field">
        <label for="model-select">Model</label>
        ${
          models.length
            ? html`<select
              id="model-select"
              name=${showTyped ? 'model-choice' : 'model'}
              data-role="model-select"
              aria-invalid=${w.errors.model && !showTyped ? 'true' : 'false'}
              aria-describedby="model-error"
              @change=${(e: Event) => {
                const v = (e.target as HTMLSelectElement).value;
                w.typing = v === OTHER;
                w.model = v === OTHER ? '' : v;
                w.errors = { ...w.errors, model: undefined };
                if (w.typing) w.focusAfterUpdate('[data-role="model-input"]');
              }}
            >
              ${models.map((m) => html`<option value=${m.id} ?selected=${!showTyped && m.id === w.model}>${m.label !== m.id ? `${m.label} — ${m.id}` : m.id}</option>`)}
              <option value=${OTHER} ?selected=${showTyped}>Another model id…</option>
            </select>`
            : nothing
        }
        ${
          showTyped
            ? html`<input
              id=${models.length ? 'model-input' : 'model-select'}
              name="model"
              class="mono"
              data-role="model-input"
              aria-label=${models.length ? 'Model id' : nothing}
              placeholder=${p.id === 'openrouter' ? 'anthropic/claude-sonnet-4.6' : 'The model’s id, as the server names it'}
              autocomplete="off"
              spellcheck="false"
              .value=${w.model}
              aria-invalid=${w.errors.model ? 'true' : 'false'}
              aria-describedby="model-error"
              @input=${(e: Event) => {
                w.model = (e.target as HTMLInputElement).value;
                w.errors = { ...w.errors, model: undefined };
              }}
            />`
            : nothing
        }
        <p class="field-error" id="model-error" role="alert">${w.errors.model ?? nothing}</p>
        ${!result?.ok && models.length ? html`<p class="hint meta">Test the connection to see every model ${p.label} offers.</p>` : nothing}
      </div>
    </div>
    <div class="actions">
      <button type="button" data-role="onboarding-back" @click=${() => w.go('provider')}>Back</button>
      <button type="submit" class="primary" data-role="onboarding-next" ?disabled=${running}>${w.unverified ? 'Continue anyway' : 'Continue'}</button>
    </div>
  </form>`;
}

/** Connect, for a Hermes Agent gateway: its API server's address, an optional key, a test; no model to pick. */
export function renderGatewayStep(w: WizardView, p: OnboardingProvider): TemplateResult {
  const result = w.probeResult;
  const running = w.probe.state === 'running';
  const agent = result?.ok ? result.agent : undefined;
  const via = agent?.path ? (AGENT_PATHS[agent.path] ?? agent.path) : null;
  return html`<form class="step" @submit=${w.submit} novalidate>
    <h2 tabindex="-1">Connect your Hermes Agent</h2>
    <p class="lead">
      Hermes’ API server answers here: set <span class="mono">API_SERVER_ENABLED=true</span> (and an <span class="mono">API_SERVER_KEY</span>) in
      <span class="mono">~/.hermes/.env</span>, then run <span class="mono">hermes gateway</span>. Its model, tools, memory and approval rules are used.
    </p>
    <div class="fields">
      ${input(w, 'base_url', 'API server URL', w.baseUrl, (v) => (w.baseUrl = v), {
        type: 'url',
        placeholder: p.default_base_url ?? 'http://127.0.0.1:8642',
        hint: html`Hermes logs it as <span class="mono">API server listening on …</span>. From inside Docker, use <span class="mono">host.docker.internal</span> instead of <span class="mono">127.0.0.1</span>.`,
        mono: true,
      })}
      ${input(w, 'api_key', 'API key (optional)', w.apiKey, (v) => (w.apiKey = v), {
        type: 'password',
        placeholder: 'Its API_SERVER_KEY, if it has one',
        hint: html`Saved as <span class="mono">${p.key_env ?? 'HERMES_WEBUI_GATEWAY_API_KEY'}</span>. Left empty, Hermes’ own <span class="mono">API_SERVER_KEY</span> is used when this server can read it.`,
        mono: true,
      })}
      <div class="probe-row">
        <button type="button" class="outline" data-role="probe" ?disabled=${running} @click=${() => void w.runProbe()}>
          ${running ? html`${icons.spinner()} Testing…` : 'Test connection'}
        </button>
        ${
          result?.ok
            ? html`<span class="state ok" role="status" data-role="probe-ok">${icons.check()} Connected — ${agent?.label ?? 'Hermes Agent'}${via ? ` · ${via}` : ''}</span>`
            : html`<span class="meta" role="status">${running ? 'Asking Hermes what it offers…' : !result ? 'Checks it answers, and how.' : ''}</span>`
        }
      </div>
      ${
        result?.ok
          ? html`<div class="agent-facts meta" data-role="probe-agent">
            ${
              result.models.length
                ? html`<p>Model: <span class="mono">${result.models.map((m) => m.id).join(', ')}</span> — chosen by your Hermes.</p>`
                : html`<p>Your Hermes chooses the model.</p>`
            }
            ${
              agent?.limitations.length
                ? html`<ul class="limits" data-role="probe-limitations" aria-label="What this path cannot do">
                  ${agent.limitations.map((l) => html`<li>${l}</li>`)}
                </ul>`
                : nothing
            }
          </div>`
          : nothing
      }
      ${
        result && !result.ok
          ? html`<div class="problem" role="alert" data-role="probe-error" data-kind=${result.error}>
            <p>${withCode(gatewayProbeMessage(result, w.baseUrl || (p.default_base_url ?? '')))}</p>
            ${result.detail ? html`<p class="meta mono detail">${result.detail}</p>` : nothing}
            ${w.unverified ? html`<p class="meta">Press Continue again to use these settings anyway.</p>` : nothing}
          </div>`
          : nothing
      }
    </div>
    <div class="actions">
      <button type="button" data-role="onboarding-back" @click=${() => w.go('provider')}>Back</button>
      <button type="submit" class="primary" data-role="onboarding-next" ?disabled=${running}>${w.unverified ? 'Continue anyway' : 'Continue'}</button>
    </div>
  </form>`;
}
