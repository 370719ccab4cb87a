import type { InsightsReport } from '../../src/domain/insights.js';
import { q, request } from './client.js';

export type { InsightsReport };

/** What the panel asks for: a trailing preset, or raw `YYYY-MM-DD` days the server reads in its own calendar. */
export type InsightsRange = { days: number } | { start: string; end: string };

/** Usage over one window (`GET /api/insights`, the incumbent's shape plus `mode`). */
export const insightsApi = {
  get: (range: InsightsRange) =>
    request<InsightsReport>(
      'GET',
      `/api/insights?${'days' in range ? q({ days: range.days }) : q({ start: range.start || undefined, end: range.end || undefined })}`,
    ),
};
