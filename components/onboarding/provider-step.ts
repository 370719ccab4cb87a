import { html, nothing, type TemplateResult } from 'lit';
import type { OnboardingProvider } from '../api/client.js';
import type { WizardView } from './wizard-view.js';

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
const GROUPS: Array<[OnboardingProvider['group'], string, string]> = [
  ['easy', 'Easy start', 'A hosted provider: paste an API key and pick a model.'],
  ['local', 'Open / self-hosted', 'A model server you run: point Hermes at its address.'],
  ['agent', 'Your Hermes Agent', 'Its own model, tools, memory and skills answer.'],
];

/** Step 2: the providers, grouped; choosing one goes on to Connect. */
export function renderProviderStep(w: WizardView): TemplateResult {
  const s = w.status;
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
              aria-pressed=${w.provider?.id === p.id ? 'true' : 'false'}
              @click=${() => w.choose(p)}
            >
              <span class="option-title">${p.label}${p.key_set ? html`<span class="badge">key found</span>` : nothing}</span>
              <span class="option-blurb meta">${BLURB[p.id] ?? ''}</span>
            </button>`,
          )}
        </div>
      </div>`;
    })}
    <div class="actions">
      <button type="button" data-role="onboarding-back" @click=${() => w.go('check')}>Back</button>
    </div>
  </section>`;
}
