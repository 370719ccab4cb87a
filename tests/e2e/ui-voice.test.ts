import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hooks, startUi, type UiHarness } from '../helpers/browser.js';

const mic = 'hermes-dictation-button [data-role="dictate"]';
const micState = 'hermes-dictation-button [data-role="dictation-state"]';

/**
 * Dictation in Chromium with its fake microphone (a generated tone through the real
 * getUserMedia and MediaRecorder): the recording goes to POST /api/transcribe, the server sends
 * it to the OpenAI-compatible endpoint config.yaml's `stt:` names (the scripted provider,
 * keyless because it is local, as Hermes allows), and the transcript lands in the composer.
 */
describe('web app: voice', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ browserArgs: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', '--autoplay-policy=no-user-gesture-required'] });
    await appendFile(
      join(ui.home, '.hermes', 'config.yaml'),
      `stt:\n  provider: openai\n  openai:\n    model: whisper-1\n    base_url: ${ui.model.url}\ntts:\n  openai:\n    voice: echo\n    base_url: ${ui.model.url}\n`,
    );
  });
  afterAll(async () => ui?.close());

  it('records from the microphone, posts it to /api/transcribe and puts the transcript in the composer', async () => {
    ui.model.audio.setTranscript('Please summarise the last build');
    const { context, page } = await ui.open('/');
    await context.grantPermissions(['microphone']);
    // The recorder path (the browser's own recogniser would need Google's service).
    await page.evaluate(() => {
      delete (window as any).webkitSpeechRecognition;
      delete (window as any).SpeechRecognition;
    });
    await page.locator(hooks.composer).fill('Note:');
    await page.locator(mic).click();
    await expect.poll(() => page.locator(micState).textContent(), { timeout: 10_000 }).toBe('Recording…');
    expect(await page.locator(mic).getAttribute('aria-pressed')).toBe('true');
    await ui.screenshot(page, 'dictation-recording');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator(hooks.composer).inputValue(), { timeout: 15_000 }).toBe('Note: Please summarise the last build');
    expect(await page.locator(micState).count()).toBe(0);

    const sent = ui.model.audio.transcriptions.at(-1)!;
    expect(sent.model).toBe('whisper-1');
    expect(sent.file?.name).toMatch(/^dictation-\d+\.(webm|ogg)$/);
    expect(sent.file?.type).toMatch(/^audio\/(webm|ogg)/);
    // A real container from MediaRecorder: WebM starts with the EBML magic, Ogg with OggS.
    expect([...sent.file!.bytes.slice(0, 4)]).toSatisfy((b: number[]) => b.join() === '26,69,223,163' || b.join() === '79,103,103,83');
  });

  it('Read aloud with the server engine plays the audio /api/tts answers', async () => {
    await ui.api('/api/settings', { tts_engine: 'openai' });
    ui.model.enqueue([{ text: 'The build passed.' }]);
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('How did the build go?');
    await page.locator(hooks.send).click();
    const read = page.locator(`${hooks.message('assistant')} [data-role="read-aloud"]`);
    await expect.poll(() => read.count(), { timeout: 15_000 }).toBe(1);
    await read.click();
    await expect.poll(() => ui.model.audio.speeches.length, { timeout: 10_000 }).toBe(1);
    expect(ui.model.audio.speeches[0]).toMatchObject({ input: 'The build passed.', voice: 'echo', model: 'gpt-4o-mini-tts' });
    // The silent MP3 plays to its end and the button returns to "Read aloud".
    await expect.poll(() => read.getAttribute('aria-label'), { timeout: 15_000 }).toBe('Read aloud');
    expect(await page.locator(`${hooks.message('assistant')} [data-role="read-aloud-error"]`).allTextContents()).toEqual([]);
  });
});
