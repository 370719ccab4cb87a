import { msg } from '@lit/localize';

/**
 * A provider's label in the language shown. The server's labels are names (OpenRouter, Ollama,
 * LM Studio) except three that describe a choice; those are matched by their English text (the
 * same id, custom, has one in the providers list and another in the wizard's catalog).
 */
export function providerLabel(p: { label: string }): string {
  switch (p.label) {
    case 'Custom endpoint':
      return msg('Custom endpoint');
    case 'Custom OpenAI-compatible':
      return msg('Custom OpenAI-compatible');
    case 'Hermes Agent (API server)':
      return msg('Hermes Agent (API server)');
    default:
      return p.label;
  }
}
