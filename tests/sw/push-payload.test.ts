import { describe, expect, it } from 'vitest';
import { APPROVAL_ACTIONS, notificationTag, parsePushPayload, sessionOfUrl, sessionUrl } from '../../src/shared/push-payload.js';

describe('push payload', () => {
  const approval = {
    title: 'Approval needed',
    body: 'rm -rf build',
    tag: notificationTag('approval', 'abc123'),
    data: { kind: 'approval', session_id: 'abc123', approval_id: 'ap1', url: '/session/abc123' },
  };

  it('keeps an approval with its id and gives it our two buttons', () => {
    expect(parsePushPayload(approval)).toEqual({ ...approval, actions: APPROVAL_ACTIONS });
    expect(APPROVAL_ACTIONS.map((a) => [a.action, a.title])).toEqual([
      ['allow', 'Allow once'],
      ['deny', 'Deny'],
    ]);
  });

  it('gives no buttons to an approval without its id, nor to other kinds, whatever the sender listed', () => {
    const { approval_id: _, ...noId } = approval.data;
    expect(parsePushPayload({ ...approval, data: noId })?.actions).toBeUndefined();
    const turn = parsePushPayload({ ...approval, data: { ...approval.data, kind: 'turn' }, actions: [{ action: 'allow', title: 'x' }] });
    expect(turn?.data.kind).toBe('turn');
    expect(turn?.actions).toBeUndefined();
  });

  it('refuses what is not ours and never leads a click off the origin', () => {
    expect(parsePushPayload(null)).toBeNull();
    expect(parsePushPayload('text')).toBeNull();
    expect(parsePushPayload({ title: 'x', data: { kind: 'other' } })).toBeNull();
    expect(parsePushPayload({ data: { kind: 'turn' } })).toBeNull();
    expect(parsePushPayload({ title: 'x', data: { kind: 'turn', session_id: 's1', url: 'https://evil.example/' } })?.data.url).toBe('/session/s1');
    expect(parsePushPayload({ title: 'x', data: { kind: 'task', url: '//evil.example/' } })?.data.url).toBe('/');
    expect(parsePushPayload({ title: 'x', data: { kind: 'task', url: '/?panel=tasks' } })).toMatchObject({
      body: '',
      tag: 'hermes-task-app',
      data: { url: '/?panel=tasks' },
    });
  });

  it('reads the session a window shows from its address', () => {
    expect(sessionOfUrl('http://127.0.0.1:1/session/abc123')).toBe('abc123');
    expect(sessionOfUrl('http://127.0.0.1:1/session/abc123?x=1#m')).toBe('abc123');
    expect(sessionOfUrl('http://127.0.0.1:1/')).toBeNull();
    expect(sessionOfUrl(sessionUrl('a b'))).toBe('a b');
  });
});
