import { describe, expect, it } from 'vitest';
import { INTERRUPTED_TOOL_RESULT, planResume, resumeCount } from '../../src/runs/run-resume.js';
import type { RunEvent } from '../../src/runs/events.js';
import type { JournalRecord, TurnCheckpoint } from '../../src/runs/journal.js';
import type { Message } from '../../src/shared/session.js';

/** The rebuild of a turn a restart cut short (src/runs/run-resume.ts), from transcript, checkpoint and journal. */
const user: Message = { role: 'user', content: 'do it', timestamp: 1 };
const call = (id: string, name = 'terminal') => ({ id, type: 'function', function: { name, arguments: '{"command":"ls"}' } });
const assistant = (...ids: string[]): Message => ({ role: 'assistant', content: '', tool_calls: ids.map((id) => call(id)), timestamp: 2 });
const result = (id: string, content = 'ok'): Message => ({ role: 'tool', tool_call_id: id, name: 'terminal', content, timestamp: 3 });

let seq = 0;
const ev = (event: string, data: Record<string, unknown>): RunEvent => ({ seq: ++seq, event, data, at: seq }) as RunEvent;
const started = (id: string) => ev('tool', { event_type: 'tool.started', name: 'terminal', preview: 'terminal ls', args: {}, tool_call_id: id });
const completed = (id: string) =>
  ev('tool_complete', { event_type: 'tool.completed', name: 'terminal', preview: 'terminal ls', args: {}, tool_call_id: id, is_error: false, result: 'ok' });
const record = (events: RunEvent[], checkpoint: TurnCheckpoint | null): JournalRecord => ({ sessionId: 's', events, checkpoint });

describe('planResume', () => {
  it('records a call that was running as interrupted, keeps a finished one, and stores the step whole', () => {
    seq = 0;
    const events = [started('a'), completed('a'), started('b')];
    const plan = planResume([user], record(events, { seq: 2, step: { assistant: assistant('a', 'b'), results: [result('a')] } }), 9);
    expect(plan.attempt).toBe(1);
    expect(plan.interrupted).toEqual([{ tool_call_id: 'b', name: 'terminal' }]);
    expect(plan.store).toEqual([
      assistant('a', 'b'),
      result('a'),
      { role: 'tool', tool_call_id: 'b', name: 'terminal', content: INTERRUPTED_TOOL_RESULT, timestamp: 9 },
    ]);
    expect(plan.resume).toEqual({ attempt: 1, step: null, partial: false });
  });

  it('a call not started yet is interrupted too (never run silently)', () => {
    seq = 0;
    const plan = planResume([user], record([], { seq: 0, step: { assistant: assistant('a'), results: [] } }), 9);
    expect(plan.interrupted.map((t) => t.tool_call_id)).toEqual(['a']);
  });

  it('a call waiting for an approval or a clarify answer runs again; the others keep their results', () => {
    seq = 0;
    const events = [started('a'), completed('a'), started('b'), ev('approval', { command: 'rm -rf x', approval_id: 'p1' })];
    const plan = planResume([user], record(events, { seq: 2, step: { assistant: assistant('a', 'b', 'c'), results: [result('a')] } }), 9);
    expect(plan.store).toEqual([]);
    expect(plan.resume.step?.rerun.map((c) => c.id)).toEqual(['b']);
    // c (after b, never started) is interrupted: only the question's own call is asked again.
    expect(plan.resume.step?.results.map((r) => [r.tool_call_id, r.content])).toEqual([
      ['a', 'ok'],
      ['c', INTERRUPTED_TOOL_RESULT],
    ]);

    seq = 0;
    const clarify = [started('q'), ev('clarify', { clarify_id: 'c1', question: 'which?' })];
    expect(planResume([user], record(clarify, { seq: 0, step: { assistant: assistant('q'), results: [] } }), 9).resume.step?.rerun.map((c) => c.id)).toEqual([
      'q',
    ]);
  });

  it('an answered question (its call completed) is not asked again', () => {
    seq = 0;
    const events = [started('q'), ev('clarify', { clarify_id: 'c1', question: 'which?' }), completed('q'), started('r')];
    const plan = planResume([user], record(events, { seq: 3, step: { assistant: assistant('q', 'r'), results: [result('q', 'blue')] } }), 9);
    expect(plan.resume.step).toBeNull();
    expect(plan.interrupted.map((t) => t.tool_call_id)).toEqual(['r']);
  });

  it('skips a step the transcript already has (stored before the checkpoint moved on): deduped by tool_call id', () => {
    seq = 0;
    const transcript = [user, assistant('a'), result('a')];
    const plan = planResume(transcript, record([started('a'), completed('a')], { seq: 2, step: { assistant: assistant('a'), results: [result('a')] } }), 9);
    expect(plan.store).toEqual([]);
    expect(plan.interrupted).toEqual([]);
    expect(plan.resume).toEqual({ attempt: 1, step: null, partial: false });
  });

  it('text and reasoning streamed after the checkpoint become a partial answer the model continues', () => {
    seq = 0;
    const events = [ev('token', { text: 'old ' }), ev('reasoning', { text: 'hmm' }), ev('token', { text: 'Hello ' }), ev('token', { text: 'wor' })];
    const plan = planResume([user], record(events, { seq: 1, step: null }), 9);
    expect(plan.store).toEqual([{ role: 'assistant', content: 'Hello wor', reasoning: 'hmm', _partial: true, timestamp: 9 }]);
    expect(plan.resume.partial).toBe(true);
    // With no checkpoint at all (the first model call), everything streamed counts.
    expect(planResume([user], record(events, null), 9).store[0]?.content).toBe('old Hello wor');
  });

  it('a partial answer already stored is not stored twice', () => {
    seq = 0;
    const partial: Message = { role: 'assistant', content: 'Hel', _partial: true, timestamp: 5 };
    const plan = planResume([user, partial], record([ev('token', { text: 'Hel' })], null), 9);
    expect(plan.store).toEqual([]);
    expect(plan.resume.partial).toBe(true);
  });

  it('counts attempts from the resumed events; text of a resumed attempt is marked with its number', () => {
    seq = 0;
    const events = [ev('token', { text: 'a' }), ev('resumed', { attempt: 1 }), ev('token', { text: 'b' })];
    expect(resumeCount(events)).toBe(1);
    const plan = planResume([user], record(events, { seq: 2, step: null }), 9);
    expect(plan.attempt).toBe(2);
    expect(plan.store).toEqual([{ role: 'assistant', content: 'b', _partial: true, timestamp: 9, _resume_attempt: 1 }]);
  });
});
