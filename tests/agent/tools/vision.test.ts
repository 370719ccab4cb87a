import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { knowledgeContext } from '../../../src/agent/builtin/knowledge.js';
import { parseAgentConfig } from '../../../src/agent/config.js';
import { createOpenAIProvider } from '../../../src/agent/providers/openai.js';
import { sniffImageType, visionAnalyzeTool } from '../../../src/agent/tools/vision.js';
import { startScriptedAnthropic } from '../../fixtures/scripted-anthropic.js';
import { type ScriptedServer, startScriptedOpenAI } from '../../fixtures/scripted-openai.js';
import { fakeContext, parse, sandbox, type Sandbox } from './helpers.js';

/** A 1×1 PNG and a few JPEG bytes: what the model must receive, byte for byte. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);

let openai: ScriptedServer;
let anthropic: ScriptedServer;
let images: Server;
let imagesUrl: string;
beforeAll(async () => {
  openai = await startScriptedOpenAI();
  anthropic = await startScriptedAnthropic();
  images = createServer((req, res) => {
    if (req.url === '/photo') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(JPEG);
    } else {
      res.writeHead(404);
      res.end('gone');
    }
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imagesUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await openai.close();
  await anthropic.close();
  await new Promise((resolve) => images.close(resolve));
});

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
  openai.clear();
  anthropic.clear();
  openai.requests.length = 0;
  anthropic.requests.length = 0;
});
afterEach(() => box.cleanup());

function context(yaml: string) {
  const config = parseAgentConfig({ configYaml: yaml, dotenv: null, env: {} });
  const fake = fakeContext(box);
  fake.ctx.knowledge = knowledgeContext({
    config,
    hermesHome: box.hermesHome,
    host: fake.ctx.host,
    main: { provider: createOpenAIProvider({ id: 'custom', baseUrl: openai.url }), model: 'main-model' },
    sessions: null,
    agentSessions: null,
    platform: 'linux',
  });
  return fake.ctx;
}

const auxYaml = () => `auxiliary:\n  vision:\n    base_url: ${openai.url}\n    model: vision-model\n    temperature: 0.2\n`;

describe('vision_analyze', () => {
  it("sends a local image to auxiliary.vision's model as an OpenAI image_url content part and returns its answer", async () => {
    writeFileSync(join(box.workspace, 'shot.png'), PNG);
    openai.enqueue([{ text: 'A single ' }, { text: 'transparent pixel.' }]);
    const r = parse(await visionAnalyzeTool.run({ image_url: 'shot.png', question: 'What is in it?' }, context(auxYaml())));
    expect(r).toEqual({ success: true, analysis: 'A single transparent pixel.' });
    const body = openai.requests.at(-1)!.body;
    expect(body.model).toBe('vision-model');
    expect(body.temperature).toBe(0.2);
    expect(body.messages).toHaveLength(1);
    const [text, image] = body.messages[0].content;
    expect(body.messages[0].role).toBe('user');
    expect(text.type).toBe('text');
    expect(text.text).toMatch(/then answer the following question:\n\nWhat is in it\?$/);
    expect(image).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } });
  });

  it('downloads an http image (type from its bytes) and, with no auxiliary.vision, asks the main model', async () => {
    openai.enqueue([{ reasoning: 'It is a JPEG header only.' }]);
    const r = parse(await visionAnalyzeTool.run({ image_url: `${imagesUrl}/photo`, question: 'Describe' }, context('')));
    // A reasoning-only answer is still the answer.
    expect(r).toEqual({ success: true, analysis: 'It is a JPEG header only.' });
    const body = openai.requests.at(-1)!.body;
    expect(body.model).toBe('main-model');
    expect(body.temperature).toBe(0.1);
    expect(body.messages[0].content[1].image_url.url).toBe(`data:image/jpeg;base64,${JPEG.toString('base64')}`);
  });

  it('reaches an Anthropic vision model with a base64 image block', async () => {
    writeFileSync(join(box.workspace, 'shot.png'), PNG);
    anthropic.enqueue([{ text: 'Seen.' }]);
    const yaml = `auxiliary:\n  vision:\n    provider: anthropic\n    base_url: ${anthropic.url}\n    api_key: sk-ant-test\n    model: claude-vision\n`;
    const r = parse(await visionAnalyzeTool.run({ image_url: join(box.workspace, 'shot.png'), question: 'Q' }, context(yaml)));
    expect(r).toEqual({ success: true, analysis: 'Seen.' });
    const body = anthropic.requests.at(-1)!.body;
    expect(body.model).toBe('claude-vision');
    expect(body.messages[0].content).toContainEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') } });
  });

  it('explains failures: a missing file, a non-image, a failed download, a model that refuses images, a vision provider without a model', async () => {
    const ctx = context(auxYaml());
    const missing = parse(await visionAnalyzeTool.run({ image_url: 'nope.png', question: 'Q' }, ctx));
    expect(missing.success).toBe(false);
    expect(missing.error).toMatch(/^Error analyzing image: Invalid image source: .*nope\.png does not exist/);
    writeFileSync(join(box.workspace, 'notes.txt'), 'hello');
    expect(parse(await visionAnalyzeTool.run({ image_url: 'notes.txt', question: 'Q' }, ctx)).error).toMatch(/not an image/);
    expect(parse(await visionAnalyzeTool.run({ image_url: `${imagesUrl}/missing`, question: 'Q' }, ctx)).error).toMatch(/HTTP 404/);
    writeFileSync(join(box.workspace, 'shot.png'), PNG);
    openai.enqueue({ status: 400, body: { error: { message: 'This model does not support image input', type: 'invalid_request_error' } } });
    const refused = parse(await visionAnalyzeTool.run({ image_url: 'shot.png', question: 'Q' }, ctx));
    expect(refused.success).toBe(false);
    expect(refused.analysis).toMatch(/^vision-model does not take images.*auxiliary\.vision\.model/);
    const noModel = parse(await visionAnalyzeTool.run({ image_url: 'shot.png', question: 'Q' }, context('auxiliary:\n  vision:\n    provider: openrouter\n')));
    expect(noModel.error).toMatch(/auxiliary\.vision\.model is not set/);
    expect(parse(await visionAnalyzeTool.run({ question: 'Q' }, ctx))).toEqual({ success: false, error: 'image_url is required' });
  });

  it('reads auxiliary.vision as Hermes does: config first, AUXILIARY_VISION_MODEL when it names no model', () => {
    const env = { AUXILIARY_VISION_MODEL: 'env-vision', HERMES_VISION_DOWNLOAD_TIMEOUT: '5' };
    const fromEnv = parseAgentConfig({ configYaml: 'auxiliary:\n  vision:\n    timeout: 30\n', dotenv: null, env });
    expect(fromEnv.auxiliaryVision).toMatchObject({ provider: null, model: 'env-vision', timeoutSeconds: 30, downloadTimeoutSeconds: 5, temperature: 0.1 });
    const fromYaml = parseAgentConfig({
      configYaml: 'auxiliary:\n  vision:\n    provider: OpenRouter\n    model: google/gemini-2.5-flash\n',
      dotenv: null,
      env,
    });
    expect(fromYaml.auxiliaryVision).toMatchObject({ provider: 'openrouter', model: 'google/gemini-2.5-flash' });
    expect(parseAgentConfig({ configYaml: null, dotenv: null, env: {} }).auxiliaryVision).toMatchObject({
      model: null,
      timeoutSeconds: 120,
      downloadTimeoutSeconds: 30,
    });
  });

  it('knows image types by their bytes first', () => {
    expect(sniffImageType(PNG)).toBe('image/png');
    expect(sniffImageType(JPEG, 'x.png')).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('RIFF____WEBP'))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('plain'), 'a.gif')).toBe('image/gif');
    expect(sniffImageType(Buffer.from('plain'), 'a.txt')).toBeNull();
  });
});
