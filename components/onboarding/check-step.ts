import { msg, str } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';
import { icons } from '../shared/icons.js';
import { withCode } from '../settings/probe-messages.js';
import type { WizardView } from './wizard-view.js';
import { providerLabel } from '../settings/provider-labels.js';

/** Setup is refused from this address: what to do instead. */
export function renderNotAllowed(w: WizardView): TemplateResult {
  const s = w.status;
  return html`<section class="step" data-role="onboarding-not-allowed">
    <h2 tabindex="-1">${msg('Finish setting up on the server’s machine')}</h2>
    <p class="lead">
      ${msg('This browser is connecting from another address and Hermes has no password yet, so it does not accept setup from here: whoever can reach this address could otherwise run commands on that machine.')}
    </p>
    <ul class="options-list">
      <li>${withCode(msg(str`open \`http://127.0.0.1:${location.port || '8787'}\` in a browser on the machine it runs on and set it up there, or`))}</li>
      <li>${withCode(msg('set `HERMES_WEBUI_PASSWORD` in its environment, restart it, and sign in here.'))}</li>
    </ul>
    <p class="meta">${withCode(msg(str`Configuration: \`${s.config_path}\``))}</p>
    <div class="actions">
      <button type="button" class="outline" data-role="onboarding-continue" @click=${() => w.leave()}>${msg('Continue without setting up')}</button>
    </div>
  </section>`;
}

/** Step 1: what the server sees (config, keys, agent, provider, password). */
export function renderCheckStep(w: WizardView): TemplateResult {
  const s = w.status;
  const p = s.provider;
  const current = s.providers.find((x) => x.id === p.id);
  return html`<form class="step" @submit=${w.submit} novalidate>
    <h2 tabindex="-1">${msg('Let’s get you to a first chat')}</h2>
    <p class="lead">${msg('This is what Hermes sees on this machine. Nothing is written until you press Done.')}</p>
    ${
      s.config_error
        ? html`<div class="problem" role="alert" data-role="config-error">
          <p class="problem-title">${icons.alert()} <strong>${msg('config.yaml cannot be read')}</strong></p>
          <pre class="mono">${s.config_error}</pre>
          <p>${withCode(msg(str`In \`${s.config_path}\`. Hermes did not change the file and will not overwrite it: fix the line above (or move the file aside), then check again.`))}</p>
        </div>`
        : nothing
    }
    <dl class="facts" data-role="onboarding-facts">
      <div>
        <dt>${msg('Configuration')}</dt>
        <dd><span class="mono path" title=${s.config_path}>${s.config_path}</span> <span class="meta">${s.config_error ? msg('has an error') : s.config_exists ? msg('found') : msg('not created yet')}</span></dd>
      </div>
      <div>
        <dt>${msg('Keys')}</dt>
        <dd><span class="mono path" title=${s.env_path}>${s.env_path}</span></dd>
      </div>
      <div>
        <dt>${msg('Agent')}</dt>
        <dd>
          ${
            s.backend === 'gateway'
              ? s.gateway_base_url
                ? withCode(msg(str`Hermes Agent at \`${s.gateway_base_url}\``))
                : msg('Hermes Agent')
              : html`${s.agent_runtime === 'builtin' ? msg('Built-in agent') : s.agent_runtime} <span class="state ok">${icons.check()} ${msg('ready')}</span>`
          }
          ${s.backend_fixed ? html`<span class="meta" data-role="backend-fixed">${msg('set by HERMES_WEBUI_CHAT_BACKEND')}</span>` : nothing}
        </dd>
      </div>
      <div>
        <dt>${msg('Provider')}</dt>
        <dd data-role="provider-state">
          ${
            p.usable
              ? html`${current ? providerLabel(current) : p.id}${s.default_model ? html` · <span class="mono">${s.default_model}</span>` : nothing} <span class="state ok">${icons.check()} ${msg('works')}</span>`
              : p.id
                ? html`${current ? providerLabel(current) : p.id} <span class="state warn">${p.error ?? msg('not usable yet')}</span>`
                : html`<span class="state warn">${msg('None configured yet')}</span>`
          }
        </dd>
      </div>
      <div>
        <dt>${msg('Password')}</dt>
        <dd data-role="password-state">
          ${
            s.password_enabled
              ? html`<span class="state ok">${icons.check()} ${msg('set')}</span>`
              : html`<span class="muted">${msg('Not set — fine while only this machine can reach Hermes.')}</span>`
          }
        </dd>
      </div>
    </dl>
    <div class="actions">
      ${
        s.config_error
          ? html`<button type="button" class="primary" data-role="onboarding-recheck" ?disabled=${!!w.busy} @click=${() => w.recheck()}>${w.busy === 'recheck' ? msg('Checking…') : msg('Check again')}</button>`
          : p.usable
            ? html`<button type="button" class="outline" data-role="onboarding-next" @click=${() => w.go('provider')}>${msg('Choose another provider')}</button>
              <button type="button" class="primary" data-role="onboarding-start" ?disabled=${!!w.busy} @click=${() => w.skip()}>${msg('Start chatting')}</button>`
            : html`<button type="submit" class="primary" data-role="onboarding-next">${msg('Choose a provider')}</button>`
      }
    </div>
  </form>`;
}
