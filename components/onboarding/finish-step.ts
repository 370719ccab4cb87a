import { msg, str } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';
import { formatNumber } from '../i18n/format.js';
import { icons } from '../shared/icons.js';
import { MIN_PASSWORD_LENGTH } from '../settings/password-rules.js';
import { input, needsBaseUrl, type WizardView } from './wizard-view.js';
import { providerLabel } from '../settings/provider-labels.js';

/** Step 4: the workspace and an optional password; Done writes it all. */
export function renderFinishStep(w: WizardView): TemplateResult {
  const s = w.status;
  return html`<form class="step" @submit=${w.submit} novalidate>
    <h2 tabindex="-1">${msg('A folder, and a lock if you want one')}</h2>
    <div class="fields">
      ${input(w, 'workspace', msg('Workspace'), w.workspace, (v) => (w.workspace = v), {
        hint: msg('The folder new chats work in: Hermes reads and writes files here.'),
        mono: true,
        list: s.workspaces.items.length ? 'workspaces' : undefined,
        role: 'workspace',
      })}
      ${s.workspaces.items.length ? html`<datalist id="workspaces">${s.workspaces.items.map((ws) => html`<option value=${ws.path}>${ws.name}</option>`)}</datalist>` : nothing}
      ${
        s.password_enabled
          ? html`<p class="meta" data-role="password-already">${icons.check()} ${msg('A password is already set; change it later in Settings → Security.')}</p>`
          : html`<fieldset class="password">
            <legend>${msg('Password')} <span class="meta">${msg('(optional)')}</span></legend>
            <p class="hint meta">${msg('Leave empty while only this machine can reach Hermes. Set one before opening it to a phone, your network or the internet.')}</p>
            ${input(w, 'password', msg('Password'), w.password, (v) => (w.password = v), { type: 'password', autocomplete: 'new-password', hint: msg(str`At least ${formatNumber(MIN_PASSWORD_LENGTH)} characters.`), role: 'password' })}
            ${input(w, 'confirm', msg('Confirm password'), w.confirm, (v) => (w.confirm = v), { type: 'password', autocomplete: 'new-password', role: 'password-confirm' })}
          </fieldset>`
      }
    </div>
    <p class="summary meta" data-role="onboarding-summary">
      ${w.provider ? providerLabel(w.provider) : ''}${w.gateway ? nothing : html` · <span class="mono">${w.model}</span>`}${w.provider && needsBaseUrl(w.provider) && w.baseUrl ? html` · <span class="mono">${w.baseUrl}</span>` : nothing}
    </p>
    <div class="actions">
      <button type="button" data-role="onboarding-back" @click=${() => w.go('connect')}>${msg('Back')}</button>
      <button type="submit" class="primary" data-role="onboarding-done" ?disabled=${!!w.busy}>${w.busy === 'setup' ? msg('Saving…') : msg('Done — start chatting')}</button>
    </div>
  </form>`;
}
