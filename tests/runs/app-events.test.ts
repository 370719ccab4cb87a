import { describe, expect, it } from 'vitest';
import { AppEvents, type AppEvent } from '../../src/runs/app-events.js';
import { RunRegistry } from '../../src/runs/registry.js';
import { MemoryRunJournal } from '../../src/runs/journal.js';
import { InteractionHub } from '../../src/runs/interactions.js';

describe('AppEvents', () => {
  it('tells every listener, even when one throws, and forgets a removed one', () => {
    const errors: unknown[] = [];
    const events = new AppEvents((err) => errors.push(err));
    const heard: string[] = [];
    events.on(() => {
      throw new Error('boom');
    });
    const off = events.on((e) => heard.push(e.type));
    events.emit({ type: 'sessions_changed', reason: 'session_rename', session_id: 's1' });
    off();
    events.emit({ type: 'sessions_changed', reason: 'session_delete', session_id: 's1' });
    expect(heard).toEqual(['sessions_changed']);
    expect(errors).toHaveLength(2);
    expect(events.listenerCount).toBe(1);
  });

  it('hears a run start and finish from the registry, with who started it', async () => {
    const events = new AppEvents();
    const heard: AppEvent[] = [];
    events.on((e) => heard.push(e));
    const registry = new RunRegistry({ journal: new MemoryRunJournal(), now: () => 100, events, keepFinishedMs: 0 });
    const run = registry.begin('s1', 'st1', 'cron');
    await registry.end(run, 'completed');
    expect(heard).toEqual([
      { type: 'turn_started', session_id: 's1', stream_id: 'st1', pending_started_at: 100, source: 'cron' },
      { type: 'turn_finished', session_id: 's1', stream_id: 'st1', status: 'completed' },
    ]);
  });

  it('hears an approval wait and its answer from the hub', async () => {
    const events = new AppEvents();
    const heard: AppEvent[] = [];
    events.on((e) => heard.push(e));
    const hub = new InteractionHub(() => 1, events);
    const { pending, answer } = hub.requestApproval(
      's1',
      'r1',
      { command: 'rm -rf /tmp/x', description: 'delete', pattern_key: 'rm', pattern_keys: ['rm'] } as never,
      60_000,
      new AbortController().signal,
    );
    expect(heard.map((e) => e.type)).toEqual(['approval_waiting']);
    hub.respondApproval('s1', 'once', pending.approval_id);
    expect(await answer).toBe('once');
    expect(heard.at(-1)).toEqual({ type: 'attention_resolved', session_id: 's1', kind: 'approval', id: pending.approval_id });
  });
});
