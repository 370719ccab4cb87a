import { html, nothing } from 'lit';
import type { OnboardingProvider, OnboardingStatus, ProbeResult } from '../api/client.js';

export type Step = 'check' | 'provider' | 'connect' | 'finish';
export type Field = 'base_url' | 'api_key' | 'model' | 'workspace' | 'password' | 'confirm';
export type Probe = { state: 'idle' } | { state: 'running' } | { state: 'done'; result: ProbeResult; for: string };
export type Busy = 'setup' | 'skip' | 'recheck' | null;

/**
 * What the step templates see of <hermes-onboarding>: its state, read and written live (a write
 * is the element's own reactive property changing), and the actions its buttons call.
 */
export interface WizardView {
  readonly status: OnboardingStatus;
  readonly provider: OnboardingProvider | null;
  baseUrl: string;
  apiKey: string;
  model: string;
  /** "Other model id…" is chosen: the text field holds the model. */
  typing: boolean;
  readonly probe: Probe;
  /** The last test's result, when it was for the fields as they are now. */
  readonly probeResult: ProbeResult | null;
  /** The last test failed and the person was told: Continue now goes on regardless. */
  readonly unverified: boolean;
  workspace: string;
  password: string;
  confirm: string;
  readonly busy: Busy;
  errors: Partial<Record<Field, string>>;
  /** A Hermes Agent gateway is chosen: no model to pick (its own agent has one). */
  readonly gateway: boolean;
  go(step: Step): void;
  choose(p: OnboardingProvider): void;
  /** Enter anywhere in a step's fields submits it. */
  submit(e: SubmitEvent): void;
  runProbe(): void;
  skip(): void;
  recheck(): void;
  /** Leaves the wizard without writing anything. */
  leave(): void;
  /** After the next update: focus what the selector finds in the wizard. */
  focusAfterUpdate(selector: string): void;
}

export function needsBaseUrl(p: OnboardingProvider): boolean {
  return p.base_url_editable || p.id === 'custom';
}

export function needsKeyField(p: OnboardingProvider): boolean {
  return p.needs_key || p.key_optional || p.id === 'custom';
}

/** One labelled text field with its error and hint; typing clears its error. */
export function input(
  w: WizardView,
  name: Field,
  label: string,
  value: string,
  set: (value: string) => void,
  o: { type?: string; placeholder?: string; hint?: unknown; mono?: boolean; autocomplete?: string; list?: string; role?: string } = {},
) {
  const error = w.errors[name];
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
        if (w.errors[name]) w.errors = { ...w.errors, [name]: undefined };
      }}
    />
    <p class="field-error" id=${`${name}-error`} role="alert">${error ?? nothing}</p>
    ${o.hint ? html`<p class="hint meta" id=${`${name}-hint`}>${o.hint}</p>` : nothing}
  </div>`;
}
