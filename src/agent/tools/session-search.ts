import { clamp, errorMessage, int, json, str } from './args.js';
import { SessionRecall, type RecallHit, type RecallMessage, type RecallSession } from './session-recall.js';
import type { Tool } from './types.js';

const DEFAULT_LIMIT = 3;
const MAX_LIMIT = 10;
/** Messages either side of a discovery match, and a scroll's default. */
const MATCH_WINDOW = 5;
const BOOKEND = 3;
/** A read of a longer session shows its head and tail only. */
const READ_HEAD = 20;
const READ_TAIL = 10;
/** One message's text in a result; a long tool output would crowd out the rest. */
const MESSAGE_CHARS = 2000;

const fail = (error: string) => json({ success: false, error });

/** "December 01, 2026 at 02:15 PM" (local time), as Hermes writes dates for the model. */
export function formatWhen(ts: number | null): string {
  if (ts === null || !Number.isFinite(ts) || ts <= 0) return 'unknown';
  const d = new Date(ts * 1000);
  const month = d.toLocaleString('en-US', { month: 'long' });
  const hour = d.getHours() % 12 || 12;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${month} ${pad(d.getDate())}, ${d.getFullYear()} at ${pad(hour)}:${pad(d.getMinutes())} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
}

function shown(m: RecallMessage) {
  const content = m.content.length > MESSAGE_CHARS ? `${m.content.slice(0, MESSAGE_CHARS)}… [${m.content.length - MESSAGE_CHARS} more chars]` : m.content;
  return { id: m.id, role: m.role, content, ...(m.timestamp !== null ? { when: formatWhen(m.timestamp) } : {}) };
}

function around(session: RecallSession, messageId: number, window: number) {
  const at = session.messages.findIndex((m) => m.id === messageId);
  if (at === -1) return null;
  const from = Math.max(0, at - window);
  const to = Math.min(session.messages.length, at + window + 1);
  return { messages: session.messages.slice(from, to).map(shown), messages_before: at - from, messages_after: to - at - 1 };
}

const conversational = (m: RecallMessage) => (m.role === 'user' || m.role === 'assistant') && m.content.trim() !== '';

function discoveryResult(hit: RecallHit, full: boolean) {
  const { session } = hit;
  const base = {
    session_id: session.session_id,
    title: session.title,
    when: formatWhen(session.started_at ?? session.updated_at),
    source: session.source,
    snippet: hit.snippet,
    detail: full ? 'full' : 'compact',
    match_message_id: hit.message_id,
  };
  if (!full) {
    const anchor = session.messages.find((m) => m.id === hit.message_id);
    return { ...base, bookend_start: [], bookend_end: [], messages: anchor ? [shown(anchor)] : [], messages_before: 0, messages_after: 0 };
  }
  const talk = session.messages.filter(conversational);
  const view = around(session, hit.message_id, MATCH_WINDOW) ?? { messages: [], messages_before: 0, messages_after: 0 };
  return {
    ...base,
    bookend_start: talk.slice(0, BOOKEND).map(shown),
    bookend_end: talk.length > BOOKEND ? talk.slice(-BOOKEND).map(shown) : [],
    ...view,
  };
}

function readResult(session: RecallSession) {
  const all = session.messages;
  const large = all.length > READ_HEAD + READ_TAIL;
  return {
    success: true,
    session_id: session.session_id,
    title: session.title,
    when: formatWhen(session.started_at ?? session.updated_at),
    source: session.source,
    message_count: all.length,
    messages: (large ? all.slice(0, READ_HEAD) : all).map(shown),
    ...(large ? { omitted: all.length - READ_HEAD - READ_TAIL, tail: all.slice(-READ_TAIL).map(shown) } : {}),
  };
}

/**
 * Hermes' `session_search`: recall from past conversations, here this server's sessions and
 * Hermes' own state.db together. Four shapes by argument: discovery (`query`), scroll
 * (`session_id` + `around_message_id`), read (`session_id`), browse (nothing).
 */
export const sessionSearchTool: Tool = {
  spec: {
    name: 'session_search',
    description:
      "Search past conversations (this web UI's sessions and Hermes' own session database), or read inside one. No LLM calls: every shape returns the real messages. " +
      'It searches conversation history only; when the user points at a live source (a file, URL, system), check that source first.\n\n' +
      "Shapes: (1) discovery — pass `query`: the best matching sessions, one per session; the top one (or all with detail='full') comes with ±5 messages around the match and the first/last 3 messages of the conversation, the others with the matching message only. " +
      '(2) scroll — pass `session_id` + `around_message_id`: ±`window` messages around that message; re-anchor on the first/last id to move. ' +
      '(3) read — pass `session_id` alone: the whole session (first 20 + last 10 messages when long). (4) browse — no arguments: recent sessions.\n\n' +
      'Query syntax: words are AND-ed; use OR for alternatives (`alpha OR beta`), "quotes" for phrases, NOT to exclude, `deploy*` for prefixes.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Keywords, phrases or boolean expression to find (discovery). Omit to browse recent sessions.' },
        limit: { type: 'integer', description: `Discovery/browse: sessions to return (default ${DEFAULT_LIMIT}, max ${MAX_LIMIT})`, default: DEFAULT_LIMIT },
        sort: { type: 'string', enum: ['newest', 'oldest'], description: 'Discovery: order the matches by time instead of relevance' },
        detail: {
          type: 'string',
          enum: ['adaptive', 'full'],
          description:
            "Discovery: 'adaptive' (default) gives the top match full context and the rest the matching message; 'full' gives every match full context",
          default: 'adaptive',
        },
        session_id: { type: 'string', description: 'Scroll/read: the session, as a discovery or browse result names it' },
        around_message_id: { type: 'integer', description: 'Scroll: the message id to centre on (match_message_id or any id from a previous window)' },
        window: { type: 'integer', description: 'Scroll: messages on each side of the anchor (1-20, default 5)', default: MATCH_WINDOW },
        role_filter: {
          type: 'string',
          description: "Comma-separated roles to search (default 'user,assistant'; add 'tool' to include tool output)",
        },
      },
      required: [],
    },
  },
  async run(args, ctx) {
    const knowledge = ctx.knowledge;
    if (!knowledge || (!knowledge.sessions && !knowledge.agentSessions)) return fail('Session search is not available on this server');
    const recall = new SessionRecall(knowledge.sessions, knowledge.agentSessions, ctx.sessionId);
    const sessionId = str(args.session_id)?.trim() || null;
    try {
      if (sessionId) {
        const session = await recall.session(sessionId);
        if (!session) return fail(`Session '${sessionId}' not found`);
        if (args.around_message_id === undefined || args.around_message_id === null) return json(readResult(session));
        const window = clamp(int(args.window, MATCH_WINDOW), 1, 20);
        const view = around(session, int(args.around_message_id, -1), window);
        if (!view) return fail(`Message ${String(args.around_message_id)} not found in session '${sessionId}'`);
        return json({ success: true, session_id: session.session_id, title: session.title, source: session.source, window, ...view });
      }
      const limit = clamp(int(args.limit, DEFAULT_LIMIT), 1, MAX_LIMIT);
      const query = str(args.query)?.trim() ?? '';
      if (!query) {
        const sessions = (await recall.recent(limit)).map((s) => ({ ...s, when: formatWhen(s.updated_at) }));
        return json({ success: true, mode: 'browse', sessions, count: sessions.length });
      }
      const roles = (str(args.role_filter) ?? 'user,assistant')
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean);
      const sort = args.sort === 'newest' || args.sort === 'oldest' ? args.sort : null;
      const full = args.detail === 'full';
      const hits = await recall.discover(query, { roles: roles.length ? roles : ['user', 'assistant'], limit, sort });
      const results = hits.map((h, i) => discoveryResult(h, full || i === 0));
      return json({
        success: true,
        query,
        results,
        count: results.length,
        ...(results.length ? {} : { message: 'No past sessions matched. Try fewer words, OR between alternatives, or a prefix*.' }),
      });
    } catch (err) {
      return fail(`Session search failed: ${errorMessage(err)}`);
    }
  },
};
