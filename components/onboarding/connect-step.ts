import { msg, str } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';
import { AGENT_PATHS, type CatalogModel, type OnboardingProvider } from '../api/client.js';
import { formatNumber } from '../i18n/format.js';
import { icons } from '../shared/icons.js';
import { gatewayProbeMessage, probeMessage, withCode } from '../settings/probe-messages.js';
import { input, needsBaseUrl, needsKeyField, type WizardView } from './wizard-view.js';
import { providerLabel } from '../settings/provider-labels.js';

/** Where to get a key. */
const KEY_PAGE: Record<string, string> = {
  openrouter: 'https://openrouter.ai/keys',
  anthropic: 'https://console.anthropic.com/settings/keys',
  openai: 'https://platform.openai.com/api-keys',
};
/** An OpenRouter model id, as the placeholder's example (code, not words). */
const OPENROUTER_EXAMPLE = 'anthropic/claude-sonnet-4.6';
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
    <h2 tabindex="-1">${p.id === 'custom' ? msg('Connect your OpenAI-compatible server') : msg(str`Connect ${providerLabel(p)}`)}</h2>
    ${
      p.group === 'local'
        ? html`<p class="lead">${withCode(msg('Point Hermes at the server’s OpenAI-compatible API root — usually ending in `/v1`.'))}</p>`
        : html`<p class="lead">
          ${withCode(msg(str`Paste an API key. It is saved in \`${w.status.env_path}\` and never shown again.`))}
          ${KEY_PAGE[p.id] ? html`<a href=${KEY_PAGE[p.id]!} target="_blank" rel="noopener noreferrer">${msg(str`Get a key at ${new URL(KEY_PAGE[p.id]!).host}`)}</a>` : nothing}
        </p>`
    }
    <div class="fields">
      ${
        needsBaseUrl(p)
          ? input(w, 'base_url', msg('Base URL'), w.baseUrl, (v) => (w.baseUrl = v), {
              type: 'url',
              placeholder: p.default_base_url ?? 'http://127.0.0.1:8000/v1',
              hint: withCode(
                msg(
                  'From inside Docker, `localhost` is the container itself: use `host.docker.internal` (Linux: `api.local` with `extra_hosts: "api.local:host-gateway"`).',
                ),
              ),
              mono: true,
            })
          : nothing
      }
      ${
        needsKeyField(p)
          ? input(w, 'api_key', p.needs_key ? msg('API key') : msg('API key (optional)'), w.apiKey, (v) => (w.apiKey = v), {
              type: 'password',
              placeholder: p.key_set
                ? msg('A saved key was found — leave empty to keep it')
                : p.needs_key
                  ? msg('Paste the key')
                  : msg('Only if the server asks for one'),
              hint: p.key_env ? withCode(msg(str`Saved as \`${p.key_env}\`.`)) : nothing,
              mono: true,
            })
          : nothing
      }
      <div class="probe-row">
        <button type="button" class="outline" data-role="probe" ?disabled=${running} @click=${() => void w.runProbe()}>
          ${running ? html`${icons.spinner()} ${msg('Testing…')}` : msg('Test connection')}
        </button>
        ${
          result?.ok
            ? html`<span class="state ok" role="status" data-role="probe-ok">${icons.check()} ${result.models.length === 1 ? msg('Connected — 1 model') : msg(str`Connected — ${formatNumber(result.models.length)} models`)}</span>`
            : html`<span class="meta" role="status">${running ? msg('Asking for its model list…') : !result ? msg('Lists the models it offers.') : ''}</span>`
        }
      </div>
      ${
        result && !result.ok
          ? html`<div class="problem" role="alert" data-role="probe-error" data-kind=${result.error}>
            <p>${probeMessage(result, w.baseUrl || (p.default_base_url ?? ''), providerLabel(p))}</p>
            ${result.detail ? html`<p class="meta mono detail">${result.detail}</p>` : nothing}
            ${w.unverified ? html`<p class="meta">${msg('Press Continue again to use these settings anyway.')}</p>` : nothing}
          </div>`
          : nothing
      }
      <div class="field">
        <label for="model-select">${msg('Model')}</label>
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
              <option value=${OTHER} ?selected=${showTyped}>${msg('Another model id…')}</option>
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
              aria-label=${models.length ? msg('Model id') : nothing}
              placeholder=${p.id === 'openrouter' ? OPENROUTER_EXAMPLE : msg('The model’s id, as the server names it')}
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
        ${!result?.ok && models.length ? html`<p class="hint meta">${msg(str`Test the connection to see every model ${providerLabel(p)} offers.`)}</p>` : nothing}
      </div>
    </div>
    <div class="actions">
      <button type="button" data-role="onboarding-back" @click=${() => w.go('provider')}>${msg('Back')}</button>
      <button type="submit" class="primary" data-role="onboarding-next" ?disabled=${running}>${w.unverified ? msg('Continue anyway') : msg('Continue')}</button>
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
    <h2 tabindex="-1">${msg('Connect your Hermes Agent')}</h2>
    <p class="lead">
      ${withCode(msg('Hermes’ API server answers here: set `API_SERVER_ENABLED=true` (and an `API_SERVER_KEY`) in `~/.hermes/.env`, then run `hermes gateway`. Its model, tools, memory and approval rules are used.'))}
    </p>
    <div class="fields">
      ${input(w, 'base_url', msg('API server URL'), w.baseUrl, (v) => (w.baseUrl = v), {
        type: 'url',
        placeholder: p.default_base_url ?? 'http://127.0.0.1:8642',
        hint: withCode(msg('Hermes logs it as `API server listening on …`. From inside Docker, use `host.docker.internal` instead of `127.0.0.1`.')),
        mono: true,
      })}
      ${input(w, 'api_key', msg('API key (optional)'), w.apiKey, (v) => (w.apiKey = v), {
        type: 'password',
        placeholder: msg('Its API_SERVER_KEY, if it has one'),
        hint: withCode(
          msg(
            str`Saved as \`${p.key_env ?? 'HERMES_WEBUI_GATEWAY_API_KEY'}\`. Left empty, Hermes’ own \`API_SERVER_KEY\` is used when this server can read it.`,
          ),
        ),
        mono: true,
      })}
      <div class="probe-row">
        <button type="button" class="outline" data-role="probe" ?disabled=${running} @click=${() => void w.runProbe()}>
          ${running ? html`${icons.spinner()} ${msg('Testing…')}` : msg('Test connection')}
        </button>
        ${
          result?.ok
            ? html`<span class="state ok" role="status" data-role="probe-ok">${icons.check()} ${msg(str`Connected — ${agent?.label ?? 'Hermes Agent'}`)}${via ? ` · ${via}` : ''}</span>`
            : html`<span class="meta" role="status">${running ? msg('Asking Hermes what it offers…') : !result ? msg('Checks it answers, and how.') : ''}</span>`
        }
      </div>
      ${
        result?.ok
          ? html`<div class="agent-facts meta" data-role="probe-agent">
            ${
              result.models.length
                ? html`<p>${withCode(msg(str`Model: \`${result.models.map((m) => m.id).join(', ')}\` — chosen by your Hermes.`))}</p>`
                : html`<p>${msg('Your Hermes chooses the model.')}</p>`
            }
            ${
              agent?.limitations.length
                ? html`<ul class="limits" data-role="probe-limitations" aria-label=${msg('What this path cannot do')}>
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
            ${w.unverified ? html`<p class="meta">${msg('Press Continue again to use these settings anyway.')}</p>` : nothing}
          </div>`
          : nothing
      }
    </div>
    <div class="actions">
      <button type="button" data-role="onboarding-back" @click=${() => w.go('provider')}>${msg('Back')}</button>
      <button type="submit" class="primary" data-role="onboarding-next" ?disabled=${running}>${w.unverified ? msg('Continue anyway') : msg('Continue')}</button>
    </div>
  </form>`;
}
