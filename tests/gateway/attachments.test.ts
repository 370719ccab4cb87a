import { afterEach, describe, expect, it } from 'vitest';
import { makeGatewayApp, type GatewayHarness } from './harness.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** Hermes runs on this machine: attachments go to it by path (its tools open them), never as bytes. */
describe('gateway runtime: attachments', () => {
  let h: GatewayHarness;
  afterEach(async () => h?.close());

  it('names each attachment by path in the runs input (images with Hermes’ own hint); the transcript keeps the typed text', async () => {
    h = await makeGatewayApp();
    const sid = await h.newSession();
    const up = async (name: string, data: BlobPart) => {
      const form = new FormData();
      form.append('session_id', sid);
      form.append('file', new Blob([data]), name);
      return (await (await h.app.request('/api/upload', { method: 'POST', body: form })).json()) as { path: string };
    };
    const shot = await up('shot.png', PNG);
    const notes = await up('notes.txt', 'hello');
    h.gw.enqueue({ steps: [{ delta: 'Seen.' }] });
    const { session } = await h.turn('Look', { sessionId: sid, extra: { attachments: [shot.path, notes.path] } });
    expect(h.gw.runBodies[0]!.input).toBe(`Look\n\n[Image attached at: ${shot.path}]\n[Attached file: notes.txt at ${notes.path}]`);
    expect(session.messages[0].content).toBe('Look');
    expect(JSON.stringify(h.gw.runBodies[0])).not.toContain(PNG.toString('base64'));
  });
});
