import { html, nothing } from 'lit';
import { msg, str } from '@lit/localize';
import type { CronJobRow, CronRunDetail, CronRunRow } from '../../api/crons.js';
import {
  absolute,
  duration,
  outputForDisplay,
  relative,
  runSession,
  runStatus,
  runStatusLabel,
  runTone,
  scheduleWords,
  stateLabel,
  type TaskState,
  taskState,
  toDate,
} from './task-format.js';

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

const chip = (state: TaskState) => html`<span class="chip" data-role="task-state" data-state=${state}>${stateLabel(state)}</span>`;

export function taskRow(h: TaskViewHost, job: CronJobRow) {
  const state = taskState(job, h.running.has(job.id));
  const open = () => h.open(job.id);
  return html`<div
    class="row"
    role="option"
    tabindex="0"
    aria-selected=${String(h.selected?.id === job.id)}
    data-role="task-row"
    data-job-id=${job.id}
    @click=${open}
    @keydown=${(e: KeyboardEvent) => (e.key === 'Enter' || e.key === ' ') && e.target === e.currentTarget && ((e.preventDefault(), open()))}
  >
    <span class="name">${h.unseen.has(job.id) ? html`<span class="dot" data-role="task-unseen" title=${msg('New run')}></span>` : nothing}${job.name}</span>
    ${chip(state)}
    <span class="meta" data-role="task-schedule">${scheduleWords(job)}</span>
    <span class="meta"
      >${msg('Next')} ${state === 'paused' ? msg('paused') : when(job.next_run_at)} · ${msg('Last')} ${when(job.last_run_at, msg('never'))}${
        job.last_status ? html` · <span data-role="task-last-status">${runStatusLabel(job.last_status)}</span>` : nothing
      }</span
    >
  </div>`;
}

export function taskDetail(h: TaskViewHost) {
  const job = h.selected;
  if (!job) return html`<p class="empty">${msg('Pick a task to see its runs.')}</p>`;
  const state = taskState(job, h.running.has(job.id));
  const paused = state === 'paused';
  return html`<article data-role="task-detail" data-job-id=${job.id}>
    <div class="head">
      <h3>${job.name}</h3>
      ${chip(state)}
    </div>
    <div class="head">
      <button type="button" class="primary" data-role="task-run-now" ?disabled=${state === 'running' || h.busy} @click=${() => h.runNow()}>
        ${state === 'running' ? msg('Running…') : msg('Run now')}
      </button>
      <button type="button" data-role="task-pause" ?disabled=${h.busy} @click=${() => h.togglePause()}>${paused ? msg('Resume') : msg('Pause')}</button>
      <button type="button" data-role="task-edit" @click=${() => h.edit()}>${msg('Edit')}</button>
      <button type="button" data-role="task-duplicate" ?disabled=${h.busy} @click=${() => h.duplicate()}>${msg('Duplicate')}</button>
      <button type="button" data-role="task-delete" @click=${() => h.askDelete(true)}>${msg('Delete')}</button>
    </div>
    ${h.notice ? html`<p class="hint muted" role="status" data-role="task-notice">${h.notice}</p>` : nothing}
    ${
      h.confirmDelete
        ? html`<div class="confirm" role="alertdialog" aria-label=${msg('Delete task')} data-role="task-delete-confirm">
          <span style="flex:1">${msg(str`Delete the task “${job.name}”? Its run history stays on disk.`)}</span>
          <button type="button" class="primary" data-role="task-delete-yes" ?disabled=${h.busy} @click=${() => h.deleteJob()}>${msg('Delete')}</button>
          <button type="button" data-role="task-delete-no" @click=${() => h.askDelete(false)}>${msg('Cancel')}</button>
        </div>`
        : nothing
    }
    <dl>
      <dt>${msg('Schedule')}</dt>
      <dd>${scheduleWords(job)}</dd>
      <dt>${msg('Next run')}</dt>
      <dd>${paused ? msg('paused') : when(job.next_run_at)}</dd>
      <dt>${msg('Last run')}</dt>
      <dd>${when(job.last_run_at, msg('never'))}${job.last_status ? ` · ${runStatusLabel(job.last_status)}` : ''}</dd>
      ${job.last_error ? html`<dt>${msg('Last error')}</dt><dd>${job.last_error}</dd>` : nothing}
      <dt>${msg('Model')}</dt>
      <dd>${job.model ?? msg('default')}</dd>
      ${job.skills?.length ? html`<dt>${msg('Skills')}</dt><dd>${job.skills.join(', ')}</dd>` : nothing}
      <dt>${msg('Delivery')}</dt>
      <dd>${job.deliver}</dd>
    </dl>
    <h4>${msg('Prompt')}</h4>
    <pre class="prompt">${job.prompt}</pre>
    <h4>${msg('Runs')}</h4>
    ${
      h.runs.length
        ? html`<ul class="runs" data-role="task-history">
          ${h.runs.map((r) => historyItem(h, r))}
        </ul>`
        : html`<p class="muted" data-role="task-history-empty">${msg('No runs yet.')}</p>`
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
      aria-current=${String(h.openRun?.filename === run.filename)}
      @click=${() => h.showRun(run.filename)}
    >
      <span>${status ? html`<span class="chip" data-state=${runTone(status)}>${runStatusLabel(status)}</span>` : nothing}</span>
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
      <button type="button" data-role="task-run-download" @click=${() => h.download()}>${msg('Download .md')}</button>
      ${session ? html`<button type="button" data-role="task-run-session" @click=${() => h.openSession(session)}>${msg('Open session')}</button>` : nothing}
    </div>
    <hermes-markdown data-role="task-run-body" .text=${outputForDisplay(run.content)}></hermes-markdown>
  </section>`;
}
