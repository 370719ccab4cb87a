import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { writeStateDb, type FixtureSession } from '../fixtures/hermes-state-db.js';

// The server's calendar is its process time zone; one with DST makes the day buckets honest.
const previousTz = process.env.TZ;
process.env.TZ = 'Europe/Berlin';
afterAll(() => {
  if (previousTz === undefined) delete process.env.TZ;
  else process.env.TZ = previousTz;
});

const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min).getTime() / 1000;
// Friday 2026-04-10 18:00 in Berlin (summer time since 29 March).
const NOW = local(2026, 4, 10, 18);

interface Usage {
  id: string;
  at: number;
  model?: string | null;
  input?: number;
  output?: number;
  cacheRead?: number;
  cost?: number | null;
  messages?: number;
  profile?: string;
  created?: number;
}

/** A WebUI session stored as the store keeps it (its row is what Insights reads). */
async function webui(t: TestApp, u: Usage) {
  await t.deps.sessions.create({
    session_id: u.id,
    title: u.id,
    created_at: u.created ?? u.at,
    updated_at: u.at,
    model: u.model ?? null,
    input_tokens: u.input ?? 0,
    output_tokens: u.output ?? 0,
    ...(u.cacheRead ? { cache_read_tokens: u.cacheRead } : {}),
    estimated_cost: u.cost ?? null,
    ...(u.profile ? { profile: u.profile } : {}),
    messages: Array.from({ length: u.messages ?? 2 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}`, timestamp: u.at })),
  });
}

/** A Hermes state.db in its own schema, with token counts and cost as Hermes records them. */
function stateDb(
  path: string,
  rows: Array<Omit<FixtureSession, 'messages'> & { input: number; output: number; cacheRead?: number; cost: number | null; count: number }>,
) {
  writeStateDb(
    path,
    rows.map((r) => ({ ...r, messages: [] })),
  );
  const db = new Database(path);
  try {
    const set = db.prepare(
      'UPDATE sessions SET input_tokens = ?, output_tokens = ?, cache_read_tokens = ?, estimated_cost_usd = ?, message_count = ? WHERE id = ?',
    );
    for (const r of rows) set.run(r.input, r.output, r.cacheRead ?? 0, r.cost, r.count, r.id);
  } finally {
    db.close();
  }
}

describe('GET /api/insights', () => {
  let t: TestApp;
  afterEach(async () => t?.close());
  const open = async () => {
    t = await makeTestApp();
    t.deps.clock.now = () => NOW;
    return t;
  };
  const get = async (query: string, headers?: Record<string, string>) => {
    const r = await t.call('GET', `/api/insights${query}`, undefined, headers);
    expect(r.status).toBe(200);
    return r.body;
  };

  it("answers the incumbent's shape with zeroed series when there is nothing", async () => {
    await open();
    const body = await get('');
    expect(Object.keys(body).sort()).toEqual(
      [
        'period_days',
        'mode',
        'effective_start',
        'effective_end',
        'total_sessions',
        'total_messages',
        'total_input_tokens',
        'total_output_tokens',
        'total_cache_read_tokens',
        'total_cache_hit_percent',
        'total_tokens',
        'total_cost',
        'models',
        'daily_tokens',
        'activity_by_day',
        'activity_by_hour',
      ].sort(),
    );
    expect(body).toMatchObject({ period_days: 30, mode: 'trailing', total_sessions: 0, total_cost: 0, total_cache_hit_percent: null, models: [] });
    expect(body.daily_tokens).toHaveLength(30);
    expect(body.daily_tokens[29]).toEqual({ date: '2026-04-10', input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, sessions: 0, cost: 0 });
    expect(body.daily_tokens[0].date).toBe('2026-03-12');
    expect(body.activity_by_day.map((d: any) => d.day)).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(body.activity_by_hour.map((h: any) => h.hour)).toEqual([...Array(24).keys()]);
  });

  it('sums WebUI sessions and state.db rows per model, per day, weekday and hour', async () => {
    await open();
    await webui(t, {
      id: 'w1',
      at: local(2026, 4, 10, 9, 15),
      model: 'anthropic/claude-sonnet-4.6',
      input: 1000,
      output: 200,
      cacheRead: 3000,
      cost: 0.5,
      messages: 4,
    });
    await webui(t, { id: 'w2', at: local(2026, 4, 9, 23, 30), model: 'openai/gpt-5', input: 400, output: 100, cost: 0.25 });
    await webui(t, { id: 'w3', at: local(2026, 4, 1, 12), model: null, input: 10, output: 5 });
    // Outside 7 days (and 30).
    await webui(t, { id: 'old', at: local(2026, 3, 1, 12), model: 'openai/gpt-5', input: 99_999, output: 1, cost: 9 });
    stateDb(join(t.hermesHome, 'state.db'), [
      {
        id: 'cli1',
        source: 'cli',
        model: 'anthropic/claude-sonnet-4.6',
        started_at: local(2026, 4, 10, 7),
        ended_at: local(2026, 4, 10, 9, 45),
        input: 500,
        output: 50,
        cacheRead: 1000,
        cost: 0.125,
        count: 6,
      },
      { id: 'tg1', source: 'telegram', model: 'openai/gpt-5', started_at: local(2026, 4, 8, 14), ended_at: null, input: 100, output: 10, cost: null, count: 2 },
      // What the WebUI mirrored itself (sync_to_insights) is not counted twice.
      { id: 'mirror', source: 'webui', model: 'openai/gpt-5', started_at: local(2026, 4, 10, 9), ended_at: null, input: 7777, output: 7, cost: 7, count: 7 },
      { id: 'cliold', source: 'cli', started_at: local(2026, 2, 1), ended_at: local(2026, 2, 1, 1), input: 5, output: 5, cost: 1, count: 1 },
    ]);
    const body = await get('?days=7');
    expect(body).toMatchObject({
      period_days: 7,
      mode: 'trailing',
      total_sessions: 4,
      total_messages: 4 + 2 + 6 + 2,
      total_input_tokens: 1000 + 400 + 500 + 100,
      total_output_tokens: 200 + 100 + 50 + 10,
      total_cache_read_tokens: 4000,
      total_tokens: 2000 + 360,
      total_cost: 0.875,
      // 4000 cached of 2000 + 4000 prompt tokens.
      total_cache_hit_percent: 67,
    });
    expect(body.models).toEqual([
      {
        model: 'anthropic/claude-sonnet-4.6',
        sessions: 2,
        input_tokens: 1500,
        output_tokens: 250,
        cache_read_tokens: 4000,
        cache_hit_percent: 73,
        total_tokens: 1750,
        cost: 0.625,
        session_share: 50,
        token_share: 74,
        cost_share: 71,
      },
      {
        model: 'openai/gpt-5',
        sessions: 2,
        input_tokens: 500,
        output_tokens: 110,
        cache_read_tokens: 0,
        cache_hit_percent: null,
        total_tokens: 610,
        cost: 0.25,
        session_share: 50,
        token_share: 26,
        cost_share: 29,
      },
    ]);
    expect(body.models.reduce((n: number, m: any) => n + m.sessions, 0)).toBe(body.total_sessions);
    const days = Object.fromEntries(
      body.daily_tokens.filter((d: any) => d.sessions).map((d: any) => [d.date, [d.sessions, d.input_tokens, d.output_tokens, d.cost]]),
    );
    expect(days).toEqual({ '2026-04-08': [1, 100, 10, 0], '2026-04-09': [1, 400, 100, 0.25], '2026-04-10': [2, 1500, 250, 0.625] });
    // w3 (1 April) is before the 7-day window (4–10 April).
    expect(body.daily_tokens[0].date).toBe('2026-04-04');
    const weekdays = Object.fromEntries(body.activity_by_day.filter((d: any) => d.sessions).map((d: any) => [d.day, d.sessions]));
    expect(weekdays).toEqual({ Wed: 1, Thu: 1, Fri: 2 });
    const hours = Object.fromEntries(body.activity_by_hour.filter((h: any) => h.sessions).map((h: any) => [h.hour, h.sessions]));
    expect(hours).toEqual({ 9: 2, 14: 1, 23: 1 });

    // A session with no model is `unknown`; 30 days reach 1 April but not 1 March.
    const month = await get('?days=30');
    expect(month.total_sessions).toBe(5);
    expect(month.models.find((m: any) => m.model === 'unknown')).toMatchObject({ sessions: 1, input_tokens: 10, session_share: 20, token_share: 1 });
  });

  it('serves a custom range of local calendar days, echoing mode and the effective days', async () => {
    await open();
    await webui(t, { id: 'a', at: local(2026, 3, 28, 23, 59), input: 1, output: 1 });
    // 29 March: 23 hours long (02:00 → 03:00).
    await webui(t, { id: 'b', at: local(2026, 3, 29, 1, 30), input: 2, output: 2 });
    await webui(t, { id: 'c', at: local(2026, 3, 29, 23, 59), input: 4, output: 4 });
    await webui(t, { id: 'd', at: local(2026, 3, 30, 0, 0), input: 8, output: 8 });
    const body = await get('?start=2026-03-28&end=2026-03-29');
    expect(body).toMatchObject({
      mode: 'custom',
      period_days: 2,
      effective_start: '2026-03-28',
      effective_end: '2026-03-29',
      total_sessions: 3,
      total_input_tokens: 7,
    });
    expect(body.daily_tokens.map((d: any) => [d.date, d.sessions])).toEqual([
      ['2026-03-28', 1],
      ['2026-03-29', 2],
    ]);
    // Reversed bounds are swapped; epoch bounds keep their precision ([start, end)).
    expect((await get('?start=2026-03-29&end=2026-03-28')).total_sessions).toBe(3);
    const exact = await get(`?start=${local(2026, 3, 29, 1, 30)}&end=${local(2026, 3, 30, 0, 0)}`);
    expect([exact.mode, exact.total_input_tokens]).toEqual(['custom', 6]);
    // An impossible day fails closed to the trailing window, never a range nobody asked for.
    const bad = await get('?start=2026-02-31&end=2026-03-29&days=7');
    expect(bad).toMatchObject({ mode: 'trailing', period_days: 7, effective_start: null, effective_end: null });
    // A future end stops at the clock; a future start is refused to trailing.
    expect((await get('?start=2026-04-01&end=2027-01-01')).effective_end).toBe('2026-04-10');
    expect((await get('?start=2026-05-01&days=90')).mode).toBe('trailing');
  });

  it('covers the request profile (its sessions and its own state.db); all_profiles=1 covers every one', async () => {
    await open();
    const work = join(t.hermesHome, 'profiles', 'work');
    await mkdir(work, { recursive: true });
    await webui(t, { id: 'mine', at: NOW - 3600, input: 10, output: 1 });
    await webui(t, { id: 'theirs', at: NOW - 3600, input: 20, output: 2, profile: 'work' });
    stateDb(join(t.hermesHome, 'state.db'), [{ id: 'home-cli', source: 'cli', started_at: NOW - 7200, input: 100, output: 10, cost: 1, count: 2 }]);
    stateDb(join(work, 'state.db'), [{ id: 'work-cli', source: 'cli', started_at: NOW - 7200, input: 200, output: 20, cost: 2, count: 2 }]);
    expect((await get('?days=1')).total_input_tokens).toBe(110);
    // What Hermes writes later is read on the next request (the kept rows follow the file).
    const db = new Database(join(t.hermesHome, 'state.db'));
    db.prepare('UPDATE sessions SET input_tokens = 1100').run();
    db.close();
    expect((await get('?days=1')).total_input_tokens).toBe(1110);
    const cookie = { Cookie: 'hermes_profile=work' };
    expect((await get('?days=1', cookie)).total_input_tokens).toBe(220);
    const all = await get('?days=1&all_profiles=1', cookie);
    expect([all.total_sessions, all.total_input_tokens, all.total_cost]).toEqual([4, 1330, 3]);
  });

  it('counts a gateway turn of this WebUI once (Hermes records it as api_server)', async () => {
    await open();
    await webui(t, { id: 'gw1', at: NOW - 60, input: 10, output: 1 });
    stateDb(join(t.hermesHome, 'state.db'), [
      { id: 'gw1', source: 'api_server', started_at: NOW - 120, input: 10, output: 1, cost: 0, count: 2 },
      { id: 'other-api', source: 'api_server', started_at: NOW - 120, input: 5, output: 1, cost: 0, count: 2 },
    ]);
    expect((await get('?days=1')).total_input_tokens).toBe(15);
  });

  it("counts a session that names no model under its profile's configured default", async () => {
    t = await makeTestApp({ configYaml: 'model:\n  default: my/default-model\n  provider: custom\n' });
    t.deps.clock.now = () => NOW;
    await webui(t, { id: 'plain', at: NOW - 60, model: null, input: 3, output: 1 });
    await webui(t, { id: 'named', at: NOW - 60, model: 'openai/gpt-5', input: 5, output: 1 });
    expect((await get('?days=1')).models.map((m: any) => [m.model, m.input_tokens])).toEqual([
      ['my/default-model', 3],
      ['openai/gpt-5', 5],
    ]);
  });

  it('reads an older state.db without cache or cost columns', async () => {
    await open();
    const path = join(t.hermesHome, 'state.db');
    const db = new Database(path);
    db.exec(
      'CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL, ended_at REAL, input_tokens INTEGER, output_tokens INTEGER)',
    );
    db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?)').run('x', 'cli', 'm', NOW - 100, null, 42, 7);
    db.close();
    const body = await get('?days=1');
    expect(body).toMatchObject({ total_sessions: 1, total_input_tokens: 42, total_output_tokens: 7, total_messages: 0, total_cost: 0 });
  });

  it('never fails on hostile parameters', async () => {
    await open();
    for (const q of ['?days=%00', '?start=9'.padEnd(5000, '9'), '?end=-1e308', '?start=1&start=2', '?days=NaN&start=NaN', '?all_profiles=maybe&x=1']) {
      const body = await get(q);
      expect(body.period_days).toBeGreaterThan(0);
    }
  });
});
