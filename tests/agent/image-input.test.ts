import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { decideImageInput, imageInputConfig } from '../../src/agent/image-input.js';
import { parseAgentConfig } from '../../src/agent/config.js';

const cfg = (yaml: string) => imageInputConfig(parse(yaml) ?? {});

describe('image input routing (agent.image_input_mode, supports_vision), in Hermes order', () => {
  it('reads the mode as Hermes coerces it: auto | native | text, anything else auto', () => {
    expect(cfg('agent: {image_input_mode: TEXT}').mode).toBe('text');
    expect(cfg('agent: {image_input_mode: native}').mode).toBe('native');
    expect(cfg('agent: {image_input_mode: both}').mode).toBe('auto');
    expect(cfg('').mode).toBe('auto');
  });

  it('native and text are absolute; in auto an explicit auxiliary.vision backend means text', () => {
    expect(decideImageInput(cfg('agent: {image_input_mode: native}'), 'custom', 'deepseek-chat').mode).toBe('native');
    expect(decideImageInput(cfg('agent: {image_input_mode: text}'), 'anthropic', 'claude-sonnet-4-5')).toEqual({
      mode: 'text',
      reason: 'agent.image_input_mode is text',
    });
    expect(decideImageInput(cfg('auxiliary: {vision: {provider: openrouter, model: google/gemini-2.5-flash}}'), 'anthropic', 'claude-sonnet-4-5').mode).toBe(
      'text',
    );
    // provider auto with nothing else named is not explicit.
    expect(decideImageInput(cfg('auxiliary: {vision: {provider: auto}}'), 'anthropic', 'claude-sonnet-4-5').mode).toBe('native');
  });

  it('supports_vision overrides: model.supports_vision, providers.<p>.models.<m>, custom_providers[].models.<m> (vision alias; strict booleans)', () => {
    expect(decideImageInput(cfg('model: {default: x, supports_vision: false}'), 'custom', 'x').mode).toBe('text');
    expect(decideImageInput(cfg('providers: {openrouter: {models: {deepseek-chat: {supports_vision: true}}}}'), 'openrouter', 'deepseek-chat').mode).toBe(
      'native',
    );
    const custom = cfg(
      'custom_providers:\n  - name: local\n    base_url: http://x\n    models:\n      blind: {vision: "no"}\n      odd: {supports_vision: "maybe"}\n',
    );
    expect(decideImageInput(custom, 'custom:local', 'blind')).toEqual({ mode: 'text', reason: 'supports_vision is false for blind' });
    // An unreadable flag says nothing: an unknown model gets images, as the incumbent sends them.
    expect(decideImageInput(custom, 'custom:local', 'odd').mode).toBe('native');
  });

  it('known text-only families read text; the catalog verdict comes before the family table', () => {
    const none = cfg('');
    expect(decideImageInput(none, 'openrouter', 'deepseek/deepseek-chat').mode).toBe('text');
    expect(decideImageInput(none, 'openai', 'gpt-3.5-turbo').mode).toBe('text');
    expect(decideImageInput(none, 'openrouter', 'qwen/qwen2.5-vl-72b-instruct').mode).toBe('native');
    expect(decideImageInput(none, 'anthropic', 'claude-sonnet-4-5').mode).toBe('native');
    expect(decideImageInput(none, 'custom', 'deepseek-chat', true).mode).toBe('native');
    expect(decideImageInput(none, 'custom', 'gpt-4o', false).mode).toBe('text');
  });

  it('is part of the parsed agent config', () => {
    const parsed = parseAgentConfig({ configYaml: 'model: {default: m, supports_vision: "yes"}\nagent: {image_input_mode: text}\n', dotenv: null, env: {} });
    expect(parsed.imageInput).toEqual({ mode: 'text', explicitVisionBackend: false, modelSupportsVision: true, perModel: {} });
  });
});
