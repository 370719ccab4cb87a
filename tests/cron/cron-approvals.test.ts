import { describe, expect, it } from 'vitest';
import { cronCommandDecision } from '../../src/agent/builtin/unattended.js';
import { parseAgentConfig } from '../../src/agent/config.js';

const config = (yaml: string) => parseAgentConfig({ configYaml: yaml, dotenv: null, env: {} });

describe('approvals.cron_mode as Hermes reads it', () => {
  it('denies unless the string says approve, off, allow or yes', () => {
    expect(config('model: {default: m}\n').approvals.cronMode).toBe('deny');
    for (const v of ['approve', 'off', 'allow', 'yes', ' Approve ']) expect(config(`approvals:\n  cron_mode: "${v}"\n`).approvals.cronMode).toBe('approve');
    for (const v of ['deny', 'aprove', '""']) expect(config(`approvals:\n  cron_mode: ${v}\n`).approvals.cronMode).toBe('deny');
    // Hermes reads a bare YAML 1.1 `yes` as a boolean, which is none of its approving words.
    expect(config('approvals:\n  cron_mode: true\n').approvals.cronMode).toBe('deny');
  });

  it('tells the model why a flagged command did not run, or lets it run under approve', () => {
    expect(cronCommandDecision(config('approvals:\n  cron_mode: approve\n'))('rm -rf build', 'recursive delete')).toBeNull();
    const refusal = cronCommandDecision(config(''))('rm -rf build', 'recursive delete');
    expect(refusal).toContain('BLOCKED');
    expect(refusal).toContain('(recursive delete)');
    expect(refusal).toContain('approvals.cron_mode: approve');
  });
});
