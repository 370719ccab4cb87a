import { describe, expect, it } from 'vitest';
import { parseAgentConfig } from '../../../src/agent/config.js';
import { ProviderConfigError, resolveProvider } from '../../../src/agent/providers/resolve.js';
import { request } from './helpers.js';

const config = (yaml: string, env: Record<string, string> = {}) => parseAgentConfig({ configYaml: yaml, dotenv: null, env });

/** Resolves with a fetch that records the request instead of sending it. */
async function resolveAndProbe(yaml: string, env: Record<string, string> = {}, override?: string) {
  let seen: { url: string; headers: Record<string, string>; body: Record<string, unknown> } | undefined;
  const fakeFetch: typeof fetch = async (input, init) => {
    seen = { url: String(input), headers: init?.headers as Record<string, string>, body: JSON.parse(String(init?.body)) };
    return new Response('teapot', { status: 418 });
  };
  const resolved = resolveProvider(config(yaml, env), override, fakeFetch);
  await expect(async () => {
    for await (const _ of resolved.provider.stream(request({ model: resolved.model }))) void _;
  }).rejects.toThrow(/418/);
  return { ...resolved, sent: seen! };
}

function configError(yaml: string, env: Record<string, string> = {}, override?: string): ProviderConfigError {
  try {
    resolveProvider(config(yaml, env), override);
  } catch (err) {
    if (err instanceof ProviderConfigError) return err;
    throw err;
  }
  throw new Error('expected a ProviderConfigError');
}

describe('resolveProvider: provider ids', () => {
  it('openrouter: its URL, OPENROUTER_API_KEY as Bearer, attribution headers', async () => {
    const r = await resolveAndProbe('model:\n  default: anthropic/claude-sonnet-4.6\n  provider: openrouter\n', { OPENROUTER_API_KEY: 'sk-or-1' });
    expect(r.provider.id).toBe('openrouter');
    expect(r.model).toBe('anthropic/claude-sonnet-4.6');
    expect(r.sent.url).toBe('https://openrouter.ai/api/v1/chat/completions');
    expect(r.sent.headers.Authorization).toBe('Bearer sk-or-1');
    expect(r.sent.headers['X-Title']).toBe('Hermes WebUI');
    expect(r.contextLength).toBe(200_000); // a Claude model
  });

  it('openai (and its alias openai-api): api.openai.com with OPENAI_API_KEY', async () => {
    for (const id of ['openai', 'openai-api']) {
      const r = await resolveAndProbe(`model:\n  default: gpt-5\n  provider: ${id}\n`, { OPENAI_API_KEY: 'sk-oa' });
      expect(r.provider.id).toBe('openai');
      expect(r.sent.url).toBe('https://api.openai.com/v1/chat/completions');
      expect(r.sent.headers.Authorization).toBe('Bearer sk-oa');
      expect(r.contextLength).toBe(128_000);
    }
  });

  it('anthropic: the Messages API with ANTHROPIC_API_KEY, else ANTHROPIC_TOKEN; 200k context', async () => {
    const r = await resolveAndProbe('model:\n  default: claude-sonnet-4-5\n  provider: anthropic\n', { ANTHROPIC_API_KEY: 'sk-ant-1' });
    expect(r.sent.url).toBe('https://api.anthropic.com/v1/messages');
    expect(r.sent.headers['x-api-key']).toBe('sk-ant-1');
    expect(r.sent.body.max_tokens).toBe(8192);
    expect(r.contextLength).toBe(200_000);
    const t = await resolveAndProbe('model:\n  default: anthropic/claude-opus-4\n  provider: anthropic\n', { ANTHROPIC_TOKEN: 'tok-2' });
    expect(t.sent.headers['x-api-key']).toBe('tok-2');
    expect(t.model).toBe('claude-opus-4'); // the OpenRouter-style prefix means nothing to the native API
  });

  it('ollama and lmstudio: local defaults, no key', async () => {
    const o = await resolveAndProbe('model:\n  default: qwen3:8b\n  provider: ollama\n');
    expect(o.sent.url).toBe('http://localhost:11434/v1/chat/completions');
    expect(o.sent.headers.Authorization).toBeUndefined();
    expect(o.model).toBe('qwen3:8b');
    const l = await resolveAndProbe('model:\n  default: qwen3-8b\n  provider: lmstudio\n');
    expect(l.sent.url).toBe('http://localhost:1234/v1/chat/completions');
  });

  it('custom: model.base_url, keyless or with model.api_key', async () => {
    const keyless = await resolveAndProbe('model:\n  default: my-model\n  provider: custom\n  base_url: http://127.0.0.1:8080/v1/\n');
    expect(keyless.sent.url).toBe('http://127.0.0.1:8080/v1/chat/completions');
    expect(keyless.sent.headers.Authorization).toBeUndefined();
    const keyed = await resolveAndProbe('model:\n  default: m\n  provider: custom\n  base_url: http://h:1/v1\n  api_key: ${MY_KEY}\n', { MY_KEY: 'k-123' });
    expect(keyed.sent.headers.Authorization).toBe('Bearer k-123');
  });

  it('model.base_url overrides a known provider default; model.api_key beats the env var', async () => {
    const r = await resolveAndProbe('model:\n  default: gpt-5\n  provider: openai\n  base_url: https://proxy.example/v1\n  api_key: from-config\n', {
      OPENAI_API_KEY: 'from-env',
    });
    expect(r.sent.url).toBe('https://proxy.example/v1/chat/completions');
    expect(r.sent.headers.Authorization).toBe('Bearer from-config');
  });

  it('api_mode: anthropic_messages forces the Anthropic client at model.base_url', async () => {
    const r = await resolveAndProbe(
      'model:\n  default: MiniMax-M2\n  provider: custom\n  base_url: https://api.minimax.io/anthropic\n  api_key: mm-key\n  api_mode: anthropic_messages\n',
    );
    expect(r.sent.url).toBe('https://api.minimax.io/anthropic/v1/messages');
    expect(r.sent.headers['x-api-key']).toBe('mm-key');
    expect(r.sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(r.contextLength).toBe(200_000);
  });

  it('no provider: inferred from the base URL, else from the key that is present', async () => {
    expect((await resolveAndProbe('model:\n  default: m\n  base_url: http://localhost:9000/v1\n')).sent.url).toBe('http://localhost:9000/v1/chat/completions');
    expect((await resolveAndProbe('model: gpt-5\n', { OPENAI_API_KEY: 'k' })).provider.id).toBe('openai');
  });

  it('a model override replaces the model on the configured provider', async () => {
    const r = await resolveAndProbe('model:\n  default: gpt-5\n  provider: openai\n', { OPENAI_API_KEY: 'k' }, 'gpt-5-mini');
    expect(r.model).toBe('gpt-5-mini');
    expect(r.sent.body.model).toBe('gpt-5-mini');
  });
  it('an auth failure hint names the variable the key came from, not one it did not', async () => {
    const unauthorized: typeof fetch = async () => new Response('{"error":{"message":"bad key"}}', { status: 401 });
    const hintFor = async (yaml: string, env: Record<string, string>) => {
      const r = resolveProvider(config(yaml, env), null, unauthorized);
      try {
        for await (const _ of r.provider.stream(request())) void _;
      } catch (err) {
        return (err as { hint: string }).hint;
      }
      throw new Error('expected a failure');
    };
    expect(await hintFor('model:\n  default: m\n  provider: anthropic\n', { ANTHROPIC_TOKEN: 't' })).toContain('ANTHROPIC_TOKEN');
    const fromConfig = await hintFor('model:\n  default: m\n  provider: openrouter\n  api_key: cfg-key\n', { OPENROUTER_API_KEY: 'env-key' });
    expect(fromConfig).toContain('model.api_key');
    expect(fromConfig).not.toContain('OPENROUTER_API_KEY');
  });
});

describe('resolveProvider: custom:<name>:<model>', () => {
  const yaml = [
    'model:',
    '  default: gpt-5',
    '  provider: openai',
    'custom_providers:',
    '  - name: local',
    '    base_url: http://localhost:8080/v1',
    '    models:',
    '      "qwen3.5:27b": {context_length: 32768}',
    '  - name: team',
    '    base_url: https://llm.team.example/v1',
    '    key_env: TEAM_KEY',
    '  - name: claude-proxy',
    '    base_url: https://proxy.example',
    '    api_key: px',
    '    api_mode: anthropic_messages',
  ].join('\n');

  it('picks the entry; a model id may itself contain colons', async () => {
    const r = await resolveAndProbe(yaml, { OPENAI_API_KEY: 'k' }, 'custom:local:qwen3.5:27b');
    expect(r.provider.id).toBe('custom:local');
    expect(r.model).toBe('qwen3.5:27b');
    expect(r.sent.url).toBe('http://localhost:8080/v1/chat/completions');
    expect(r.sent.headers.Authorization).toBeUndefined();
    expect(r.contextLength).toBe(32768);
  });

  it('reads the key from key_env, and names the variable when it is missing', async () => {
    const r = await resolveAndProbe(yaml, { TEAM_KEY: 't-1' }, 'custom:team:big');
    expect(r.sent.headers.Authorization).toBe('Bearer t-1');
    expect(r.contextLength).toBe(128_000);
    expect(configError(yaml, {}, 'custom:team:big').message).toContain('TEAM_KEY');
  });

  it('honours the entry api_mode', async () => {
    const r = await resolveAndProbe(yaml, {}, 'custom:claude-proxy:claude-x');
    expect(r.sent.url).toBe('https://proxy.example/v1/messages');
    expect(r.sent.headers['x-api-key']).toBe('px');
  });

  it('an unknown name lists the configured ones; a missing model says the format', () => {
    expect(configError(yaml, {}, 'custom:nope:m').message).toMatch(/No custom provider named "nope".*local, team, claude-proxy/);
    expect(configError(yaml, {}, 'custom:local').message).toContain('custom:<name>:<model>');
  });
});

describe('resolveProvider: configuration errors', () => {
  it('no model at all: explains config.yaml with a 4-line example and the key variable', () => {
    const err = configError('');
    expect(err).toBeInstanceOf(ProviderConfigError);
    expect(err.message).toContain('$HERMES_HOME/config.yaml');
    expect(err.message).toContain('model:\n  default: anthropic/claude-sonnet-4.6\n  provider: openrouter\n  base_url: https://openrouter.ai/api/v1');
    expect(err.message).toContain('OPENROUTER_API_KEY=');
  });

  it.each([
    ['openrouter', 'OPENROUTER_API_KEY'],
    ['openai', 'OPENAI_API_KEY'],
    ['anthropic', 'ANTHROPIC_API_KEY or ANTHROPIC_TOKEN'],
  ])('%s without a key names %s', (id, vars) => {
    const err = configError(`model:\n  default: m\n  provider: ${id}\n`);
    expect(err.message).toContain(`set ${vars} in $HERMES_HOME/.env`);
    expect(err.message).toContain(`provider: ${id}`);
  });

  it('custom without base_url, an unknown provider, and a bad URL are explained', () => {
    expect(configError('model:\n  default: m\n  provider: custom\n').message).toMatch(/base_url is not set[\s\S]*base_url: http:\/\/localhost:8080\/v1/);
    expect(configError('model:\n  default: m\n  provider: nous\n').message).toContain('does not know the provider "nous"');
    expect(configError('model:\n  default: m\n  provider: custom\n  base_url: localhost:8080\n').message).toContain('not an http(s) URL');
  });

  it('no provider and no key: says to set one', () => {
    expect(configError('model: some-model\n').message).toMatch(/model.provider is not set[\s\S]*provider: openrouter/);
  });
});

describe('resolveProvider: context length', () => {
  it('model.context_length wins for the configured model only', () => {
    const c = config('model:\n  default: m\n  provider: ollama\n  context_length: 65536\n');
    expect(resolveProvider(c).contextLength).toBe(65536);
    expect(resolveProvider(c, 'other').contextLength).toBe(128_000);
  });

  it('then custom_providers[].models[model].context_length, then 128k (200k for Claude)', () => {
    const c = config(
      'model:\n  default: qwen3:8b\n  provider: ollama\ncustom_providers:\n  - name: x\n    base_url: http://h/v1\n    models:\n      "qwen3:8b": {context_length: 40960}\n',
    );
    expect(resolveProvider(c).contextLength).toBe(40960);
    expect(resolveProvider(c, 'llama3').contextLength).toBe(128_000);
    expect(resolveProvider(c, 'claude-3-haiku').contextLength).toBe(200_000);
  });
});
