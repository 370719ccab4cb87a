import { msg } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';
import type { OnboardingProvider } from '../api/client.js';
import type { WizardView } from './wizard-view.js';
import { providerLabel } from '../settings/provider-labels.js';

/** One line under each provider's name (read at render time, in the current language). */
const blurb = (id: string): string =>
  ({
    openrouter: msg('Hundreds of models from every lab, with one key.'),
    anthropic: msg('Claude, directly from Anthropic.'),
    openai: msg('GPT models, directly from OpenAI.'),
    ollama: msg('Open models running on this machine.'),
    lmstudio: msg('Models served by the LM Studio app.'),
    custom: msg('Any OpenAI-compatible API: vLLM, llama.cpp, TabbyAPI, a proxy…'),
    gateway: msg('The Hermes you already run answers, through its API server.'),
  })[id] ?? '';
const groups = (): Array<[OnboardingProvider['group'], string, string]> => [
  ['easy', msg('Easy start'), msg('A hosted provider: paste an API key and pick a model.')],
  ['local', msg('Open / self-hosted'), msg('A model server you run: point Hermes at its address.')],
  ['agent', msg('Your Hermes Agent'), msg('Its own model, tools, memory and skills answer.')],
];

/** Step 2: the providers, grouped; choosing one goes on to Connect. */
export function renderProviderStep(w: WizardView): TemplateResult {
  const s = w.status;
  return html`<section class="step">
    <h2 tabindex="-1">${msg('Where should answers come from?')}</h2>
    ${groups().map(([group, title, hint]) => {
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
              aria-pressed=${w.provider?.id === p.id ? 'true' : 'false'}
              @click=${() => w.choose(p)}
            >
              <span class="option-title">${providerLabel(p)}${p.key_set ? html`<span class="badge">${msg('key found')}</span>` : nothing}</span>
              <span class="option-blurb meta">${blurb(p.id)}</span>
            </button>`,
          )}
        </div>
      </div>`;
    })}
    <div class="actions">
      <button type="button" data-role="onboarding-back" @click=${() => w.go('check')}>${msg('Back')}</button>
    </div>
  </section>`;
}
