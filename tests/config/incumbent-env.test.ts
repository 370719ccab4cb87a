import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';

const home = '/home/ada';

/** The incumbent's environment variables (seed-ARCHITECTURE.md §3), parsed as it reads them. */
describe('config: the incumbent environment variables', () => {
  it('HERMES_CONFIG_PATH names the config.yaml, ~ expanded; unset leaves it in HERMES_HOME', () => {
    expect(parseConfig({ HERMES_CONFIG_PATH: '~/etc/hermes.yaml' }, { home }).hermesConfigPath).toBe('/home/ada/etc/hermes.yaml');
    expect(parseConfig({ HERMES_CONFIG_PATH: '/srv/cfg/config.yaml' }, { home }).hermesConfigPath).toBe('/srv/cfg/config.yaml');
    expect(parseConfig({}, { home })).not.toHaveProperty('hermesConfigPath');
    expect(parseConfig({ HERMES_CONFIG_PATH: '' }, { home })).not.toHaveProperty('hermesConfigPath');
  });

  it('prefill: nothing set is nothing (config.yaml, then the defaults, fill in per turn)', () => {
    expect(parseConfig({}, { home }).prefill).toEqual({});
  });

  it('reads the prefill file under both names; the WebUI-prefixed one wins', () => {
    expect(parseConfig({ HERMES_PREFILL_MESSAGES_FILE: '~/p.json' }, { home }).prefill.file).toBe('/home/ada/p.json');
    expect(parseConfig({ HERMES_WEBUI_PREFILL_MESSAGES_FILE: 'rel.json' }, { home }).prefill.file).toBe('rel.json');
    expect(parseConfig({ HERMES_PREFILL_MESSAGES_FILE: '/a.json', HERMES_WEBUI_PREFILL_MESSAGES_FILE: '/b.json' }, { home }).prefill.file).toBe('/b.json');
  });

  it('keeps the script command as written (split at run time, without a shell)', () => {
    expect(parseConfig({ HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: 'python3 "/opt/recall script.py" --fast' }, { home }).prefill.script).toBe(
      'python3 "/opt/recall script.py" --fast',
    );
  });

  it('clamps the script timeout to 0.1-30 s as the incumbent does, and refuses a non-number', () => {
    const timeout = (v: string) => parseConfig({ HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT_TIMEOUT: v }, { home }).prefill.scriptTimeoutMs;
    expect(timeout('2.5')).toBe(2500);
    expect(timeout('90')).toBe(30_000);
    expect(timeout('0')).toBe(100);
    expect(() => timeout('soon')).toThrow(/HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT_TIMEOUT: must be a number of seconds/);
  });

  it('the budget: 0 turns it off, larger than the output limit is clamped, fractions are refused', () => {
    const max = (v: string) => parseConfig({ HERMES_WEBUI_PREFILL_CONTEXT_MAX_CHARS: v }, { home }).prefill.maxChars;
    expect(max('0')).toBe(0);
    expect(max('500')).toBe(500);
    expect(max('10000000')).toBe(262_144);
    expect(max('-3')).toBe(0);
    expect(() => max('1.5')).toThrow(/HERMES_WEBUI_PREFILL_CONTEXT_MAX_CHARS: must be a whole number/);
  });
});
