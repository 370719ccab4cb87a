import { describe, expect, it } from 'vitest';
import { cacheLayout, withEnvelopeCacheMarkers } from '../../../src/agent/providers/prompt-cache.js';

const mark = { type: 'ephemeral' };

describe('prompt caching: which requests, and where the markers go', () => {
  it.each([
    [{ api: 'anthropic', model: 'claude-sonnet-4-5', openRouter: false }, 'native'],
    [{ api: 'anthropic', model: 'MiniMax-M2', openRouter: false }, null],
    [{ api: 'openai', model: 'anthropic/claude-opus-4', openRouter: true }, 'envelope'],
    [{ api: 'openai', model: 'openai/gpt-5', openRouter: true }, null],
    [{ api: 'openai', model: 'claude-local', openRouter: false }, null],
  ] as const)('%j → %s', (input, layout) => {
    expect(cacheLayout(input)).toBe(layout);
  });

  it('envelope: system and the last three messages that have content; empty assistant turns are passed over', () => {
    const messages = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'u1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'u2' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'todo', arguments: '{}' } }] },
      { role: 'tool', content: 'result', tool_call_id: 'c' },
      { role: 'assistant', content: [{ type: 'text', text: 'a2' }] },
    ];
    const out = withEnvelopeCacheMarkers(messages as any, '5m');
    expect(out[0]!.content).toEqual([{ type: 'text', text: 'sys', cache_control: mark }]);
    expect(out.map((m) => Array.isArray(m.content) && m.content.some((p: any) => p.cache_control))).toEqual([true, false, false, true, false, true, true]);
    expect(out[6]!.content).toEqual([{ type: 'text', text: 'a2', cache_control: mark }]);
    // The input is left as it was: the stored transcript never carries markers.
    expect(messages[3]!.content).toBe('u2');
    expect(withEnvelopeCacheMarkers([{ role: 'user', content: 'x' }], '1h')[0]!.content).toEqual([
      { type: 'text', text: 'x', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ]);
  });
});
