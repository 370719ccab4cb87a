import { describe, expect, it } from 'vitest';
import { parseAgentConfig } from '../../../src/agent/config.js';

const mode = (yaml: string | null) => parseAgentConfig({ configYaml: yaml, dotenv: null, env: {} }).approvals.mode;

describe('approvals.mode, read as Hermes reads it', () => {
  it('is smart when unset (no file, no approvals block, an empty mode)', () => {
    expect(mode(null)).toBe('smart');
    expect(mode('model: x\n')).toBe('smart');
    expect(mode('approvals:\n  timeout: 60\n')).toBe('smart');
    expect(mode('approvals:\n  mode:\n')).toBe('smart');
  });

  it('takes the three modes in any case and spacing; a YAML boolean false is off, true manual', () => {
    expect(mode('approvals:\n  mode: "  SMART  "\n')).toBe('smart');
    expect(mode('approvals:\n  mode: off\n')).toBe('off');
    expect(mode('approvals:\n  mode: Manual\n')).toBe('manual');
    expect(mode('approvals:\n  mode: false\n')).toBe('off');
    expect(mode('approvals:\n  mode: true\n')).toBe('manual');
  });

  it('falls back to manual, the safe choice, for what it does not know', () => {
    expect(mode('approvals:\n  mode: auto\n')).toBe('manual');
    expect(mode('approvals:\n  mode: ""\n')).toBe('manual');
  });
});
