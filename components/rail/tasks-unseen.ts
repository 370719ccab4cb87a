import { request } from '../api/client.js';

/**
 * Task completions this browser has not looked at yet: the rail's Tasks badge and the panel's
 * per-job dots. What was seen lives in localStorage (every tab of the browser agrees): `since`,
 * when this browser started counting (older runs are never "new"), and per job the last
 * completion opened. Asked again on a task's completion (live sync) and when the panel opens.
 */
const KEY = 'hermes:tasks:seen';
type Seen = { since: number; jobs: Record<string, number> };

/** job_id → completed_at (epoch seconds) of completions not seen. `change` fires on every change. */
export const unseenTasks = Object.assign(new EventTarget(), { jobs: new Map<string, number>() });

function load(): Seen {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Seen | null;
    if (raw && typeof raw.since === 'number' && raw.jobs && typeof raw.jobs === 'object') return raw;
  } catch {
    /* unreadable: start counting now */
  }
  const fresh = { since: Date.now() / 1000, jobs: {} };
  save(fresh);
  return fresh;
}

function save(seen: Seen) {
  try {
    localStorage.setItem(KEY, JSON.stringify(seen));
  } catch {
    /* storage denied: seen for this page only */
  }
}

let asking: Promise<void> | null = null;
let again: Promise<void> | null = null;

/**
 * Asks the server for completions since this browser started counting, one request at a time;
 * asked while one is on its way, it asks once more after it (that answer may predate the news).
 */
export function refreshUnseen(): Promise<void> {
  if (asking) {
    again ??= asking.then(() => {
      again = null;
      return refreshUnseen();
    });
    return again;
  }
  asking = (async () => {
    const { since } = load();
    try {
      const { completions } = await request<{ completions: Array<{ job_id: string; completed_at: number }> }>('GET', `/api/crons/recent?since=${since}`);
      // Read again: a job opened while the answer was on its way (here or in another tab) is seen.
      const seen = load();
      const jobs = new Map<string, number>();
      for (const c of completions) if (c.completed_at > (seen.jobs[c.job_id] ?? seen.since)) jobs.set(c.job_id, c.completed_at);
      unseenTasks.jobs = jobs;
      unseenTasks.dispatchEvent(new Event('change'));
    } catch {
      /* no tasks here (404) or offline: the badge stays as it was */
    }
  })().finally(() => (asking = null));
  return asking;
}

/** The job's runs were looked at: its completions so far are no longer new. */
export function markTaskSeen(jobId: string): void {
  const seen = load();
  seen.jobs[jobId] = Math.max(unseenTasks.jobs.get(jobId) ?? 0, Date.now() / 1000);
  save(seen);
  if (unseenTasks.jobs.delete(jobId)) unseenTasks.dispatchEvent(new Event('change'));
}

let watching = false;
/** Starts listening for task completions (once per page). */
export function watchUnseen(): void {
  if (watching) return;
  watching = true;
  window.addEventListener('hermes-sessions-changed', (e) => e.detail.reason === 'cron_complete' && void refreshUnseen());
  window.addEventListener('hermes-profile-changed', () => void refreshUnseen());
  // Another tab opened a job's history.
  window.addEventListener('storage', (e) => e.key === KEY && void refreshUnseen());
  void refreshUnseen();
}
