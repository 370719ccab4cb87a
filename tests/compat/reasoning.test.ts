import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/** GET/POST /api/reasoning with the incumbent's bodies, answer keys and error texts (api/config.py). */
let t: TestApp;
afterEach(async () => t?.close());

const CONFIG = 'model:\n  default: anthropic/claude-sonnet-4.6\n  provider: openrouter\n';

describe('/api/reasoning', () => {
  it('answers the keys its composer reads', async () => {
    t = await makeTestApp({ configYaml: CONFIG });
    const r = await t.call('GET', '/api/reasoning?model=&provider=&base_url=&extra=1');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([
      'reasoning_effort',
      'show_reasoning',
      'supported_efforts',
      'supports_reasoning_effort',
      'supports_thinking_toggle',
    ]);
  });

  it('names what it got when display or effort is not one it knows', async () => {
    t = await makeTestApp({ configYaml: CONFIG });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ display: 'maybe' }, "display must be show|hide|on|off (got 'maybe')"],
      [{ display: 7 }, "display must be show|hide|on|off (got '7')"],
      [{ effort: 'Extreme' }, "Unknown reasoning effort 'Extreme'. Valid: none, minimal, low, medium, high, xhigh, max."],
      [{ effort: 3 }, "Unknown reasoning effort '3'. Valid: none, minimal, low, medium, high, xhigh, max."],
      [{ display: null, effort: null, session_id: 'x' }, "reasoning: must supply 'display' or 'effort'"],
    ];
    for (const [body, error] of cases)
      expect(await t.call('POST', '/api/reasoning', body), JSON.stringify(body)).toMatchObject({ status: 400, body: { error } });
    expect(await readFile(join(t.hermesHome, 'config.yaml'), 'utf8')).toBe(CONFIG);
  });

  it('takes display as true/false and 1/0 too, and effort "" as the default', async () => {
    t = await makeTestApp({ configYaml: CONFIG });
    expect((await t.call('POST', '/api/reasoning', { display: false, session_id: 'ignored' })).body.show_reasoning).toBe(false);
    expect((await t.call('POST', '/api/reasoning', { display: '1' })).body.show_reasoning).toBe(true);
    expect((await t.call('POST', '/api/reasoning', { effort: 'HIGH' })).body.reasoning_effort).toBe('high');
    const cleared = await t.call('POST', '/api/reasoning', { effort: '' });
    expect(cleared).toMatchObject({ status: 200, body: { reasoning_effort: '' } });
    expect(await readFile(join(t.hermesHome, 'config.yaml'), 'utf8')).not.toContain('reasoning_effort');
  });
});
