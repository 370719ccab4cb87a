/**
 * The app's own DOM events, one map: elements announce intent upwards; <hermes-app> (or the
 * nearest owner) acts. `composed` so they cross shadow roots.
 */
export interface HermesEventMap {
  /** Open a session (null: the empty new-chat view). */
  'hermes-open-session': { sessionId: string | null; replace?: boolean };
  /** Open a file from the transcript or the tree in the workspace panel. */
  'hermes-open-file': { path: string };
}

declare global {
  interface HTMLElementEventMap {
    'hermes-open-session': CustomEvent<HermesEventMap['hermes-open-session']>;
    'hermes-open-file': CustomEvent<HermesEventMap['hermes-open-file']>;
  }
}

export function emit<K extends keyof HermesEventMap>(from: EventTarget, name: K, detail: HermesEventMap[K]): void {
  from.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}

/**
 * Dispatched on `window` when providers or the default model change (Settings → Providers,
 * the onboarding wizard): whoever shows the model list fetches it again.
 */
export const MODELS_CHANGED = 'hermes-models-changed';

export function announceModelsChanged(): void {
  window.dispatchEvent(new Event(MODELS_CHANGED));
}
