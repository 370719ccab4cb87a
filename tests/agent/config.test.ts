import { describe, expect, it } from 'vitest';
import { parseAgentConfig } from '../../src/agent/config.js';
import { compressionTrigger } from '../../src/agent/builtin/compression-policy.js';

const parse = (yaml: string) => parseAgentConfig({ configYaml: `model:\n  default: m\n  provider: openai\n${yaml}`, dotenv: null, env: {} });

describe('agent.max_turns, as Hermes resolve_turn_limit reads it', () => {
  const cases: Array<[string, number | null]> = [
    ['', null], // absent: Hermes' default is unlimited
    ['agent:\n  max_turns: null\n', null],
    ['agent:\n  max_turns:\n', null],
    ['agent:\n  max_turns: none\n', null],
    ['agent:\n  max_turns: None\n', null],
    ['agent:\n  max_turns: unlimited\n', null],
    ['agent:\n  max_turns: " Unlimited "\n', null],
    ['agent:\n  max_turns: inf\n', null],
    ['agent:\n  max_turns: .inf\n', null],
    ['agent:\n  max_turns: infinity\n', null],
    ['agent:\n  max_turns: "∞"\n', null],
    ['agent:\n  max_turns: 0\n', null],
    ['agent:\n  max_turns: -1\n', null],
    ['agent:\n  max_turns: "-1"\n', null],
    ['agent:\n  max_turns: -5\n', null],
    ['agent:\n  max_turns: 60\n', 60],
    ['agent:\n  max_turns: "25"\n', 25],
    ['agent:\n  max_turns: 7.9\n', 7],
    ['agent:\n  max_turns: "3.5"\n', 3],
    ['agent:\n  max_turns: 1\n', 1],
    ['agent:\n  max_turns: true\n', null], // a boolean is not a number: the default
    ['agent:\n  max_turns: lots\n', null], // unparseable: the default, never a refused config
    ['agent:\n  max_turns: [1, 2]\n', null],
    ['max_turns: 12\n', 12], // legacy root-level key
    ['max_turns: 12\nagent:\n  max_turns: 40\n', 40], // agent.max_turns wins
    ['max_turns: 12\nagent:\n  max_turns: null\n', null], // an explicit agent value wins, even null
  ];
  it.each(cases)('%j → %j', (yaml, expected) => {
    expect(parse(yaml).maxTurns).toBe(expected);
  });
});

describe('compression.* with Hermes config_defaults shapes', () => {
  it('defaults', () => {
    expect(parse('').compression).toEqual({
      enabled: true,
      threshold: 0.5,
      thresholdTokens: null,
      protectFirstN: 3,
      protectLastN: 20,
      abortOnSummaryFailure: false,
      modelThresholds: {},
    });
  });
  const cases: Array<[string, Record<string, unknown>]> = [
    ['compression:\n  enabled: false\n', { enabled: false }],
    ['compression:\n  enabled: "yes"\n', { enabled: true }],
    ['compression:\n  enabled: "off"\n', { enabled: false }], // Hermes: str(x).lower() in {true, 1, yes}
    ['compression:\n  threshold: 0.8\n', { threshold: 0.8 }],
    ['compression:\n  threshold: "0.6"\n', { threshold: 0.6 }],
    ['compression:\n  threshold: high\n', { threshold: 0.5 }],
    ['compression:\n  threshold_tokens: 120000\n', { thresholdTokens: 120000 }],
    ['compression:\n  threshold_tokens: null\n', { thresholdTokens: null }],
    ['compression:\n  threshold_tokens: 0\n', { thresholdTokens: null }],
    ['compression:\n  protect_first_n: 0\n', { protectFirstN: 0 }],
    ['compression:\n  protect_first_n: -2\n', { protectFirstN: 0 }],
    ['compression:\n  protect_last_n: 6\n', { protectLastN: 6 }],
    ['compression:\n  protect_last_n: 0\n', { protectLastN: 1 }],
    ['compression:\n  model_thresholds:\n    glm-5.2: 0.4\n    bad: lots\n', { modelThresholds: { 'glm-5.2': 0.4 } }],
    ['compression:\n  abort_on_summary_failure: true\n', { abortOnSummaryFailure: true }],
    ['compression: off\n', {}], // not a mapping: ignored, defaults
    // Keys Hermes defines that this agent does not use are accepted and ignored.
    ['compression:\n  tail_mode: lean\n  target_ratio: 0.3\n  in_place: true\n  max_attempts: 6\n', {}],
  ];
  it.each(cases)('%j', (yaml, expected) => {
    expect(parse(yaml).compression).toMatchObject(expected);
  });
});

describe('the compression trigger (Hermes context_compressor rules)', () => {
  const c = (threshold: number, thresholdTokens: number | null = null) => ({ threshold, thresholdTokens });
  const cases: Array<[string, ReturnType<typeof c>, number, number | null, number]> = [
    ['0.5 under 512K is floored at 0.75', c(0.5), 200_000, null, 150_000],
    ['a higher configured ratio wins over the floor', c(0.9), 200_000, null, 180_000],
    ['512K and up keep the configured ratio', c(0.5), 1_000_000, null, 500_000],
    ['the output reservation comes off the window', c(0.5), 1_000_000, 200_000, 400_000],
    ['never under 64K tokens', c(0.5), 80_000, null, 64_000],
    ['a window at or under 64K triggers at 85%', c(0.5), 32_000, null, 27_200],
    ['threshold_tokens below the ratio wins', c(0.5, 100_000), 1_000_000, null, 100_000],
    ['threshold_tokens above the window is clamped to it', c(0.5, 5_000_000), 1_000_000, null, 500_000],
  ];
  it.each(cases)('%s', (_label, config, window, maxTokens, expected) => {
    expect(compressionTrigger(config, window, maxTokens)).toBe(expected);
  });
  it('model_thresholds: the longest key in the model name wins, and the small-window floor still applies', () => {
    const c = { threshold: 0.5, thresholdTokens: null, modelThresholds: { glm: 0.9, 'glm-5.2-1M': 0.3 } };
    expect(compressionTrigger(c, 1_000_000, null, 'z-ai/glm-5.2-1M')).toBe(300_000);
    expect(compressionTrigger(c, 1_000_000, null, 'glm-4')).toBe(900_000);
    expect(compressionTrigger(c, 200_000, null, 'glm-5.2-1M')).toBe(150_000);
    expect(compressionTrigger(c, 1_000_000, null, 'gpt-5')).toBe(500_000);
  });
});

describe('memory.*, auxiliary.compression and terminal.timeout', () => {
  it('defaults are Hermes’', () => {
    const cfg = parse('');
    expect(cfg.memory).toEqual({ memoryEnabled: true, userProfileEnabled: true, memoryCharLimit: 2200, userCharLimit: 1375 });
    expect(cfg.auxiliaryCompression).toEqual({ provider: null, model: null, baseUrl: null, apiKey: null, timeoutSeconds: 120 });
    expect(cfg.terminal.timeoutSeconds).toBe(180);
  });
  it('reads the keys as written in config.yaml', () => {
    const cfg = parse(
      'memory:\n  memory_enabled: false\n  user_profile_enabled: true\n  memory_char_limit: 4000\n  user_char_limit: "900"\n  nudge_interval: 10\n  provider: ""\n' +
        'auxiliary:\n  compression:\n    provider: Auto\n    model: cheap-model\n    base_url: ""\n    api_key: ""\n    timeout: 60\n    extra_body: {}\n' +
        'terminal:\n  timeout: "300"\n  backend: local\n',
    );
    expect(cfg.memory).toEqual({ memoryEnabled: false, userProfileEnabled: true, memoryCharLimit: 4000, userCharLimit: 900 });
    expect(cfg.auxiliaryCompression).toEqual({ provider: null, model: 'cheap-model', baseUrl: null, apiKey: null, timeoutSeconds: 60 });
    expect(cfg.terminal.timeoutSeconds).toBe(300);
  });
  it('unusable values fall back instead of refusing the file', () => {
    const cfg = parse('memory:\n  memory_char_limit: big\nterminal:\n  timeout: soon\nauxiliary: nope\n');
    expect(cfg.memory.memoryCharLimit).toBe(2200);
    expect(cfg.terminal.timeoutSeconds).toBe(180);
    expect(cfg.auxiliaryCompression.model).toBeNull();
  });
  it('a whole default config.yaml in Hermes’ shape loads', () => {
    const cfg = parse(
      'agent:\n  max_turns: null\n  api_max_retries: 3\n  gateway_timeout: 1800\n  reasoning_overrides: {}\n' +
        'compression:\n  enabled: true\n  threshold: 0.50\n  threshold_tokens: null\n  target_ratio: 0.20\n  protect_last_n: 20\n  protect_first_n: 3\n  max_attempts: 3\n' +
        'prompt_caching:\n  cache_ttl: 5m\nfallback_providers: []\nprovider_routing: {}\n' +
        'memory:\n  memory_enabled: true\n  user_profile_enabled: true\n  memory_char_limit: 2200\n  user_char_limit: 1375\n' +
        'terminal:\n  backend: local\n  cwd: "."\n  timeout: 180\n',
    );
    expect(cfg.maxTurns).toBeNull();
    expect(cfg.apiMaxRetries).toBe(3);
    expect(cfg.compression.protectFirstN).toBe(3);
  });
});
