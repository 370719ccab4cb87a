import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeGatewayApp, names, type GatewayHarness } from '../gateway/harness.js';

describe('turn change record: gateway turns on this machine', () => {
  let h: GatewayHarness;
  afterEach(async () => h.close());

  it('what the Hermes agent changes in the local workspace during its run is recorded on the answer', async () => {
    h = await makeGatewayApp();
    await writeFile(join(h.workspace, 'notes.md'), 'first\n');
    // The pause before the first word leaves the before snapshot (milliseconds) ample time.
    h.gw.enqueue({ steps: [{ delayMs: 1500 }, { delta: 'Editing' }, { delayMs: 1000 }, { delta: ' done.' }, { done: {} }] });
    let edited = false;
    const { frames, session } = await h.turn('edit notes', {
      onFrame: async (f) => {
        // Hermes' own file tool, on this machine, while its run goes on.
        if (f.event === 'token' && !edited) {
          edited = true;
          await writeFile(join(h.workspace, 'notes.md'), 'first\nsecond\n');
        }
      },
    });
    expect(names(frames).indexOf('turn_changes')).toBeLessThan(names(frames).indexOf('done'));
    expect(session.messages.at(-1)).toMatchObject({ role: 'assistant', file_changes: [{ path: 'notes.md', action: 'modified', additions: 1, deletions: 0 }] });
  });
});
