// The composer's parts that are not in the first paint, each a chunk of its own.

/**
 * The attachment and queue chips, and the gateway badge (nothing for the builtin agent): fetched
 * once the page is idle, and at the latest when a chip is shown (an element rendered before then
 * upgrades when its chunk runs).
 */
let chipsRequested = false;
export function requestChips(): void {
  if (chipsRequested) return;
  chipsRequested = true;
  void Promise.all([import('./hermes-attachment-chip.js'), import('./hermes-queue-chips.js'), import('./hermes-agent-badge.js')]);
}
if (typeof requestIdleCallback === 'function') requestIdleCallback(requestChips, { timeout: 3000 });
else setTimeout(requestChips, 1000);

// The mic: its element arrives in a chunk of its own.
void import('./hermes-dictation-button.js');
