import { html, nothing } from 'lit';
import type { CronJobRow, CronRunDetail, CronRunRow } from '../../api/crons.js';
import { absolute, duration, outputForDisplay, relative, runSession, runStatus, scheduleWords, taskState, toDate } from './task-format.js';

/** What the list and detail views read from the panel and call on it. */
export interface TaskViewHost {
  jobs: CronJobRow[];
  running: Set<string>;
  unseen: Map<string, number>;
  selected: CronJobRow | null;
  runs: CronRunRow[];
  openRun: CronRunDetail | null;
  confirmDelete: boolean;
  busy: boolean;
  notice: string;
  open(id: string): void;
  edit(): void;
  runNow(): void;
  togglePause(): void;
  duplicate(): void;
  askDelete(on: boolean): void;
  deleteJob(): void;
  showRun(filename: string): void;
  download(): void;
  openSession(id: string): void;
}

/** A time as "in 3 hours", with the exact time on hover. */
function when(value: string | number | null | undefined, empty = '—') {
  const at = toDate(value);
  return at ? html`<time datetime=${at.toISOString()} title=${absolute(at)}>${relative(at)}</time>` : empty;
}

const chip = (state: string) => html`<span class="chip" data-role="task-state" data-state=${state}>${state}</span>`;

export function taskRow(h: TaskViewHost, job: CronJobRow) {
  const state = taskState(job, h.running.has(job.id));
  const open = () => h.open(job.id);
  return html`<div
    class="row"
    role="option"
    tabindex="0"
    aria-selected=${h.selected?.id === job.id ? 'true' : 'false'}
    data-role="task-row"
    data-job-id=${job.id}
    @click=${open}
    @keydown=${(e: KeyboardEvent) => (e.key === 'Enter' || e.key === ' ') && e.target === e.currentTarget && ((e.preventDefault(), open()))}
  >
    <span class="name">${h.unseen.has(job.id) ? html`<span class="dot" data-role="task-unseen" title="New run"></span>` : nothing}${job.name}</span>
    ${chip(state)}
    <span class="meta" data-role="task-schedule">${scheduleWords(job)}</span>
    <span class="meta"
      >Next ${state === 'paused' ? 'paused' : when(job.next_run_at)} · Last ${when(job.last_run_at, 'never')}${
        job.last_status ? html` · <span data-role="task-last-status">${job.last_status}</span>` : nothing
      }</span
    >
  </div>`;
}

export function taskDetail(h: TaskViewHost) {
  const job = h.selected;
  if (!job) return html`<p class="empty">Pick a task to see its runs.</p>`;
  const state = taskState(job, h.running.has(job.id));
  const paused = state === 'paused';
  return html`<article data-role="task-detail" data-job-id=${job.id}>
    <div class="head">
      <h3>${job.name}</h3>
      ${chip(state)}
    </div>
    <div class="head">
      <button type="button" class="primary" data-role="task-run-now" ?disabled=${state === 'running' || h.busy} @click=${() => h.runNow()}>
        ${state === 'running' ? 'Running…' : 'Run now'}
      </button>
      <button type="button" data-role="task-pause" ?disabled=${h.busy} @click=${() => h.togglePause()}>${paused ? 'Resume' : 'Pause'}</button>
      <button type="button" data-role="task-edit" @click=${() => h.edit()}>Edit</button>
      <button type="button" data-role="task-duplicate" ?disabled=${h.busy} @click=${() => h.duplicate()}>Duplicate</button>
      <button type="button" data-role="task-delete" @click=${() => h.askDelete(true)}>Delete</button>
    </div>
    ${h.notice ? html`<p class="hint muted" role="status" data-role="task-notice">${h.notice}</p>` : nothing}
    ${
      h.confirmDelete
        ? html`<div class="confirm" role="alertdialog" aria-label="Delete task" data-role="task-delete-confirm">
          <span style="flex:1">Delete the task “${job.name}”? Its run history stays on disk.</span>
          <button type="button" class="primary" data-role="task-delete-yes" ?disabled=${h.busy} @click=${() => h.deleteJob()}>Delete</button>
          <button type="button" data-role="task-delete-no" @click=${() => h.askDelete(false)}>Cancel</button>
        </div>`
        : nothing
    }
    <dl>
      <dt>Schedule</dt>
      <dd>${scheduleWords(job)}</dd>
      <dt>Next run</dt>
      <dd>${paused ? 'paused' : when(job.next_run_at)}</dd>
      <dt>Last run</dt>
      <dd>${when(job.last_run_at, 'never')}${job.last_status ? ` · ${job.last_status}` : ''}</dd>
      ${job.last_error ? html`<dt>Last error</dt><dd>${job.last_error}</dd>` : nothing}
      <dt>Model</dt>
      <dd>${job.model ?? 'default'}</dd>
      ${job.skills?.length ? html`<dt>Skills</dt><dd>${job.skills.join(', ')}</dd>` : nothing}
      <dt>Delivery</dt>
      <dd>${job.deliver}</dd>
    </dl>
    <h4>Prompt</h4>
    <pre class="prompt">${job.prompt}</pre>
    <h4>Runs</h4>
    ${
      h.runs.length
        ? html`<ul class="runs" data-role="task-history">
          ${h.runs.map((r) => historyItem(h, r))}
        </ul>`
        : html`<p class="muted" data-role="task-history-empty">No runs yet.</p>`
    }
    ${h.openRun ? runOutput(h, h.openRun) : nothing}
  </article>`;
}

function historyItem(h: TaskViewHost, run: CronRunRow) {
  const status = runStatus(run);
  const meta = [duration(run.usage?.duration_seconds), run.usage?.model].filter(Boolean).join(' · ');
  return html`<li>
    <button
      type="button"
      data-role="task-history-item"
      data-filename=${run.filename}
      aria-current=${h.openRun?.filename === run.filename ? 'true' : 'false'}
      @click=${() => h.showRun(run.filename)}
    >
      <span>${status ? html`<span class="chip" data-state=${status === 'error' ? 'error' : 'ok'}>${status}</span>` : nothing}</span>
      <span>${when(run.modified)}</span>
      <span class="muted">${meta}</span>
    </button>
  </li>`;
}

function runOutput(h: TaskViewHost, run: CronRunDetail) {
  const session = runSession(run);
  return html`<section class="output" data-role="task-run-output" data-filename=${run.filename}>
    <div class="head">
      <h3 class="muted">${run.filename}</h3>
      <button type="button" data-role="task-run-download" @click=${() => h.download()}>Download .md</button>
      ${session ? html`<button type="button" data-role="task-run-session" @click=${() => h.openSession(session)}>Open session</button>` : nothing}
    </div>
    <hermes-markdown data-role="task-run-body" .text=${outputForDisplay(run.content)}></hermes-markdown>
  </section>`;
}
