import { json, str, toolError } from './args.js';
import type { Tool } from './types.js';
import { searchWith } from './web/backends.js';
import { NOT_CONFIGURED_SEARCH, resolveSearchBackend, SEARCH_BACKENDS } from './web/settings.js';

/** Hermes asks its backends for five results. */
const RESULTS = 5;

export const webSearchTool: Tool = {
  spec: {
    name: 'web_search',
    description:
      'Search the web for information on any topic. Returns up to 5 relevant results, each with a title, URL and description. ' +
      'Use web_extract to read a result in full.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'The search query to look up on the web' },
      },
      required: ['query'],
    },
  },
  async run(args, ctx) {
    const query = str(args.query)?.trim();
    if (!query) return toolError('query is required');
    const web = ctx.web;
    if (!web) return json({ success: false, error: NOT_CONFIGURED_SEARCH });
    const resolved = resolveSearchBackend(web.config);
    if (!resolved.backend) {
      const error = resolved.configured
        ? `Web search backend '${resolved.configured}' is not available in this runtime; set web.search_backend to one of ${SEARCH_BACKENDS.join(', ')}.`
        : NOT_CONFIGURED_SEARCH;
      return json({ success: false, error });
    }
    return json(await searchWith(resolved.backend, web.config, query, RESULTS, { signal: ctx.signal, ...(web.endpoints ? { endpoints: web.endpoints } : {}) }));
  },
};
