import { describe, expect, it } from 'vitest';
import { parseAgentConfig } from '../../src/agent/config.js';

const parse = (yaml: string, env: Record<string, string> = {}) => parseAgentConfig({ configYaml: yaml, dotenv: null, env });

describe('config.yaml: prompt_caching, provider_routing, fallback_providers', () => {
  it.each([
    ['', '5m'],
    ['prompt_caching: {}\n', '5m'],
    ['prompt_caching:\n  cache_ttl: 5m\n', '5m'],
    ['prompt_caching:\n  cache_ttl: 1h\n', '1h'],
    ['prompt_caching:\n  cache_ttl: "1H"\n', '1h'],
    ['prompt_caching:\n  cache_ttl: 10m\n', '5m'],
    ['prompt_caching:\n  cache_ttl: false\n', null],
    ['prompt_caching:\n  cache_ttl: off\n', null],
    ['prompt_caching:\n  cache_ttl: "none"\n', null],
    ['prompt_caching:\n  cache_ttl: ""\n', null],
    ['prompt_caching:\n  cache_ttl:\n', null],
    ['prompt_caching:\n  cache_ttl: 0\n', null],
  ])('%j → cache_ttl %s', (yaml, ttl) => {
    expect(parse(yaml).promptCaching).toEqual({ cacheTtl: ttl });
  });

  it('provider_routing maps to OpenRouter keys; require_parameters only when true; empty → null', () => {
    expect(parse('provider_routing:\n  sort: price\n  only: "anthropic, google"\n  require_parameters: false\n').providerRouting).toEqual({
      only: ['anthropic', 'google'],
      sort: 'price',
    });
    expect(parse('provider_routing: {}\n').providerRouting).toBeNull();
    expect(parse('').providerRouting).toBeNull();
  });

  it('fallback_providers: entries need provider and model; keys and ${VAR}s are read; it wins over fallback_model', () => {
    const c = parse(
      [
        'fallback_model: {provider: openrouter, model: legacy}',
        'fallback_providers:',
        '  - provider: OpenRouter',
        '    model: anthropic/claude-sonnet-4',
        '  - {provider: custom}',
        '  - provider: custom',
        '    model: local',
        '    base_url: http://127.0.0.1:9/v1',
        '    key_env: LOCAL_KEY',
        '    api_key: ${LOCAL_SECRET}',
        '    context_length: 32768',
        '',
      ].join('\n'),
      { LOCAL_SECRET: 's3' },
    );
    expect(c.fallbackProviders).toEqual([
      { provider: 'openrouter', model: 'anthropic/claude-sonnet-4', baseUrl: null, apiKey: null, keyEnv: null, apiMode: null, contextLength: null },
      { provider: 'custom', model: 'local', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 's3', keyEnv: 'LOCAL_KEY', apiMode: null, contextLength: 32768 },
    ]);
    expect(parse('fallback_model:\n  provider: anthropic\n  model: claude-x\n').fallbackProviders.map((e) => e.model)).toEqual(['claude-x']);
  });
});
