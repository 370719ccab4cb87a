import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigSyntaxError, applyModelChoice, removeCustomProvider, setDefaultModel, upsertCustomProvider } from '../../src/agent/config-edit.js';
import { setDotenvValue } from '../../src/agent/dotenv-edit.js';
import { parseAgentConfig, parseDotenv } from '../../src/agent/config.js';

const CONFIG = `# Hermes config — hand written
model:
  default: old-model   # the one I use
  provider: ollama
  base_url: http://127.0.0.1:11434/v1
  context_length: 32768
agent:
  max_turns: 40 # keep
custom_providers:
  - name: lab
    base_url: http://10.0.0.5:8000/v1
    api_mode: chat_completions
    models:
      big: {context_length: 8192}
future_section:
  anything: [1, 2, 3]
`;

describe('config.yaml edits keep comments and unknown keys', () => {
  it('applies a provider choice: provider, model, base URL; everything else stays', () => {
    const next = applyModelChoice(CONFIG, { provider: 'openrouter', model: 'anthropic/claude-sonnet-4.6', baseUrl: null, apiKey: null });
    expect(next).toContain('# Hermes config — hand written');
    expect(next).toContain('# the one I use');
    expect(next).toContain('max_turns: 40 # keep');
    const doc = parse(next);
    expect(doc.model).toEqual({ default: 'anthropic/claude-sonnet-4.6', provider: 'openrouter', context_length: 32768 });
    expect(doc.future_section).toEqual({ anything: [1, 2, 3] });
    expect(doc.custom_providers[0].api_mode).toBe('chat_completions');
  });

  it('writes a local server with a key reference, and starts a missing file', () => {
    const next = applyModelChoice(null, { provider: 'custom', model: 'qwen3', baseUrl: 'http://127.0.0.1:8080/v1', apiKey: '${CUSTOM_API_KEY}' });
    expect(parse(next)).toEqual({ model: { provider: 'custom', default: 'qwen3', base_url: 'http://127.0.0.1:8080/v1', api_key: '${CUSTOM_API_KEY}' } });
    // A plain `model: name` line becomes a mapping.
    expect(parse(applyModelChoice('model: gpt-4o\n', { provider: 'openai', model: 'gpt-5', baseUrl: null }))).toEqual({
      model: { default: 'gpt-5', provider: 'openai' },
    });
  });

  it('adds, replaces and removes custom providers by name without touching the others', () => {
    let next = upsertCustomProvider(CONFIG, { name: 'home', base_url: 'http://192.168.1.9:1234/v1', key_env: 'CUSTOM_HOME_API_KEY', models: ['a', 'b'] });
    let doc = parse(next);
    expect(doc.custom_providers.map((p: any) => p.name)).toEqual(['lab', 'home']);
    expect(doc.custom_providers[1]).toEqual({ name: 'home', base_url: 'http://192.168.1.9:1234/v1', key_env: 'CUSTOM_HOME_API_KEY', models: { a: {}, b: {} } });
    next = upsertCustomProvider(next, { name: 'LAB', base_url: 'http://10.0.0.6:8000/v1' });
    doc = parse(next);
    expect(doc.custom_providers[0]).toEqual({
      name: 'lab',
      base_url: 'http://10.0.0.6:8000/v1',
      api_mode: 'chat_completions',
      models: { big: { context_length: 8192 } },
    });
    next = removeCustomProvider(next, 'lab');
    expect(parse(next).custom_providers.map((p: any) => p.name)).toEqual(['home']);
    expect(next).toContain('# Hermes config — hand written');
    expect(removeCustomProvider(next, 'nope')).toBe(next);
  });

  it('refuses malformed YAML and says where, never producing a rewrite', () => {
    const bad = 'model:\n  default: x\n  provider: [unclosed\nagent: {\n';
    for (const edit of [
      () => applyModelChoice(bad, { provider: 'openai', model: 'gpt-5', baseUrl: null }),
      () => setDefaultModel(bad, 'gpt-5'),
      () => upsertCustomProvider(bad, { name: 'x', base_url: 'http://x/v1' }),
      () => removeCustomProvider(bad, 'x'),
    ]) {
      expect(edit).toThrow(ConfigSyntaxError);
      expect(edit).toThrow(/not valid YAML at line \d+, column \d+/);
    }
    expect(() => applyModelChoice('- a\n- b\n', { provider: 'openai', model: 'm', baseUrl: null })).toThrow(/mapping/);
  });
});

describe('.env edits', () => {
  const ENV = '# keys\nexport OPENAI_API_KEY=sk-old\n\nOTHER=1 # note\n';
  it('replaces a key in place, keeps every other line, and adds new keys at the end', () => {
    const next = setDotenvValue(ENV, 'OPENAI_API_KEY', 'sk-new');
    expect(next).toBe('# keys\nOPENAI_API_KEY=sk-new\n\nOTHER=1 # note\n');
    const added = setDotenvValue(next, 'OPENROUTER_API_KEY', 'sk-or-v1-abc');
    expect(added).toBe('# keys\nOPENAI_API_KEY=sk-new\n\nOTHER=1 # note\nOPENROUTER_API_KEY=sk-or-v1-abc\n');
    expect(setDotenvValue(null, 'A', 'b')).toBe('A=b\n');
  });

  it('removes a key, and quotes values so they read back exactly', () => {
    expect(setDotenvValue(ENV, 'OPENAI_API_KEY', null)).toBe('# keys\n\nOTHER=1 # note\n');
    for (const value of ['with space', 'has#hash', "it's", 'a"b', 'plain-Value_1.2:3/4']) {
      expect(parseDotenv(setDotenvValue('', 'K', value)).K).toBe(value);
    }
    expect(() => setDotenvValue('', 'K', 'line\nbreak')).toThrow(/line break/);
    expect(() => setDotenvValue('', 'BAD NAME', 'x')).toThrow();
  });
});

describe('deployment variables over config.yaml', () => {
  it('HERMES_WEBUI_DEFAULT_MODEL, _PROVIDER, _BASE_URL and _API_KEY override model.*; other keys stay', () => {
    const yaml = 'model:\n  default: from-file\n  provider: ollama\n  base_url: http://127.0.0.1:11434/v1\n  context_length: 32768\n';
    const plain = parseAgentConfig({ configYaml: yaml, dotenv: null, env: {} });
    expect(plain.model).toMatchObject({ default: 'from-file', provider: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: null });
    const env = {
      HERMES_WEBUI_DEFAULT_MODEL: 'from-env',
      HERMES_WEBUI_PROVIDER: 'custom',
      HERMES_WEBUI_BASE_URL: 'http://10.0.0.2:8000/v1',
      HERMES_WEBUI_API_KEY: 'k-123',
    };
    expect(parseAgentConfig({ configYaml: yaml, dotenv: null, env }).model).toMatchObject({
      default: 'from-env',
      provider: 'custom',
      baseUrl: 'http://10.0.0.2:8000/v1',
      apiKey: 'k-123',
      contextLength: 32768,
    });
    // Without any config.yaml (Workers), the variables are the whole configuration; .env counts too.
    expect(parseAgentConfig({ configYaml: null, dotenv: 'HERMES_WEBUI_DEFAULT_MODEL=m2\n', env: { HERMES_WEBUI_PROVIDER: 'openrouter' } }).model).toMatchObject(
      { default: 'm2', provider: 'openrouter' },
    );
  });
});
