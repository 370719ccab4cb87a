import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { RUN_EVENT_SCHEMAS } from '../../src/shared/run-events.js';
import { FAILURE_HINTS, LOG_HINTS } from '../../src/shared/server-texts.js';
import { failureHint, logHint } from '../../src/shared/server-texts-en.js';

/** A failure's hint goes out in English (the incumbent's field) with its code and values beside it. */
describe('chat: a failed turn carries hint_code and hint_args beside the English hint', () => {
  let t: ChatHarness;
  beforeEach(async () => {
    t = await makeChatApp({ extraYaml: 'agent:\n  api_max_retries: 0\n' });
  });
  afterEach(async () => t.close());

  it('429 with Retry-After: the English is unchanged, the code and values sit beside it, in the event and the stored notice', async () => {
    const sid = await t.newSession();
    t.model.enqueue({ status: 429, headers: { 'Retry-After': '20' }, body: { error: { message: 'Rate limit reached' } } });
    const frames = await t.stream((await t.start(sid, 'hello')).body.stream_id);
    const last = frames.at(-1)!;
    expect(last.event).toBe('apperror');
    expect(last.data).toMatchObject({
      type: 'rate_limit',
      hint: 'custom is rate-limiting requests; retry after 20 s (Retry-After).',
      hint_code: 'provider_rate_limit_retry',
      hint_args: { provider: 'custom', wait: '20 s' },
    });
    expect(RUN_EVENT_SCHEMAS.apperror.safeParse(last.data).success).toBe(true);
    const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(s.messages.at(-1)).toMatchObject({
      _error: true,
      content: expect.stringMatching(/\n\ncustom is rate-limiting requests; retry after 20 s \(Retry-After\)\.$/),
      hint_code: 'provider_rate_limit_retry',
      hint_args: { provider: 'custom', wait: '20 s' },
    });
  });

  it('404: the model and base_url are values, not part of the code', async () => {
    const sid = await t.newSession();
    t.model.enqueue({ status: 404, body: { error: { message: 'no such model' } } });
    const last = (await t.stream((await t.start(sid, 'x')).body.stream_id)).at(-1)!;
    expect(last.data.hint_code).toBe('provider_model_not_found');
    expect(last.data.hint_args).toEqual({ model: 'test-model', base_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+/) });
    expect(last.data.hint).toBe(
      `The model "test-model" was not found at ${last.data.hint_args.base_url}. Check the model name (model.default in config.yaml) and that base_url is right.`,
    );
  });
});

describe('the apperror schema', () => {
  const base = { message: 'm', type: 'error', hint: 'h', session_id: 's' };
  it("takes the event without the new fields (the incumbent's shape) and with them; values must be strings", () => {
    expect(RUN_EVENT_SCHEMAS.apperror.safeParse(base).success).toBe(true);
    expect(RUN_EVENT_SCHEMAS.apperror.safeParse({ ...base, hint_code: 'provider_5xx', hint_args: { provider: 'x' } }).success).toBe(true);
    expect(RUN_EVENT_SCHEMAS.apperror.safeParse({ ...base, hint_code: 'provider_5xx', hint_args: { status: 500 } }).success).toBe(false);
    expect(RUN_EVENT_SCHEMAS.apperror.safeParse({ ...base, other: 1 }).success).toBe(false);
  });
});

describe('the server texts', () => {
  const sample = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, `<${n}>`]));
  it('every code has English that sets each of its values once in place (none dropped, none glued)', () => {
    for (const [code, names] of Object.entries(FAILURE_HINTS)) {
      const h = failureHint(code as keyof typeof FAILURE_HINTS, sample(names) as never);
      expect(h.code).toBe(code);
      expect(h.text.length, code).toBeGreaterThan(10);
      // provider_* hints name the provider only in some texts: the value is there for clients that want it.
      for (const n of names) if (!(n === 'provider' && !h.text.includes('<provider>'))) expect(h.text, `${code}.${n}`).toContain(`<${n}>`);
    }
    for (const [code, names] of Object.entries(LOG_HINTS)) {
      const h = logHint(code as keyof typeof LOG_HINTS, sample(names) as never);
      for (const n of names) expect(h.text, `${code}.${n}`).toContain(`<${n}>`);
    }
  });
});
