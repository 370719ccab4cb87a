import { LitElement, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { baseStyles } from '../../shared/styles.js';
import { icons } from '../../shared/icons.js';
import { ApiError, api } from '../../api/client.js';
import { emit } from '../../events.js';
import { skillsApi } from '../../api/skills.js';
import { cronsApi, type CronJobFields, type CronJobRow, type CronRunDetail, type CronRunRow, type CronScheduler } from '../../api/crons.js';
import { markTaskSeen, refreshUnseen, unseenTasks } from '../../rail/tasks-unseen.js';
import { panelStyles } from '../panel-styles.js';
import { panelState } from '../panel-state.js';
import { scheduleInput, whoRuns } from './task-format.js';
import { tasksStyles } from './tasks-styles.js';
import { taskDetail, taskRow, type TaskViewHost } from './task-views.js';
import type { TaskFormChoices } from './hermes-task-form.js';
import './hermes-task-form.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
/** How often a running job is asked about until its run ends. */
const RUNNING_POLL_MS = 2000;

/**
 * The Tasks panel: the profile's scheduled tasks (cron/jobs.json) with their state, schedule in
 * words, next and last run; who runs them; create and edit; run now, pause/resume, duplicate,
 * delete; each job's runs with their output rendered. The open job and run survive a reload.
 */
@customElement('hermes-tasks-panel')
@localized()
export class HermesTasksPanel extends LitElement implements TaskViewHost {
  static override styles = [baseStyles, panelStyles, tasksStyles];

  #state = panelState('tasks', { selected: '', run: '' });
  @state() jobs: CronJobRow[] = [];
  @state() scheduler: CronScheduler | undefined;
  @state() running = new Set<string>();
  @state() unseen = new Map(unseenTasks.jobs);
  @state() selected: CronJobRow | null = null;
  @state() runs: CronRunRow[] = [];
  @state() openRun: CronRunDetail | null = null;
  @state() mode: 'read' | 'create' | 'edit' = 'read';
  @state() choices: TaskFormChoices = { models: [], skills: [], delivery: [] };
  @state() confirmDelete = false;
  @state() busy = false;
  @state() notice = '';
  @state() error = '';
  @state() loaded = false;
  #poll: ReturnType<typeof setTimeout> | undefined;

  #onUnseen = () => (this.unseen = new Map(unseenTasks.jobs));
  // A run started or ended somewhere (this server's scheduler, another tab): the list again.
  #onChanged = (e: Event) => {
    const reason = (e as CustomEvent<{ reason?: string }>).detail?.reason;
    if (reason === 'cron_complete' || reason === 'cron_started') void this.reload();
  };

  override connectedCallback(): void {
    super.connectedCallback();
    unseenTasks.addEventListener('change', this.#onUnseen);
    window.addEventListener('hermes-sessions-changed', this.#onChanged);
    window.addEventListener('hermes-profile-changed', this.#onProfile);
    void this.#start();
  }

  override disconnectedCallback(): void {
    unseenTasks.removeEventListener('change', this.#onUnseen);
    window.removeEventListener('hermes-sessions-changed', this.#onChanged);
    window.removeEventListener('hermes-profile-changed', this.#onProfile);
    clearTimeout(this.#poll);
    super.disconnectedCallback();
  }

  #onProfile = () => {
    this.selected = null;
    this.mode = 'read';
    this.#state.set({ selected: '', run: '' });
    void this.reload();
  };

  async #start() {
    void refreshUnseen();
    await this.reload();
    const { selected, run } = this.#state.get();
    if (selected && this.jobs.some((j) => j.id === selected)) {
      await this.open(selected);
      if (run) await this.showRun(run);
    }
  }

  /** The jobs and which of them run now. */
  async reload() {
    try {
      const [list, running] = await Promise.all([cronsApi.list(), cronsApi.status().catch(() => ({}))]);
      this.jobs = list.jobs;
      this.scheduler = list.scheduler;
      this.running = new Set(Object.keys(running));
      this.error = list.cron_unavailable ? msg('Scheduled tasks are not available on this server.') : '';
      const id = this.selected?.id;
      this.selected = id ? (this.jobs.find((j) => j.id === id) ?? null) : null;
      // "Started…" or "already in progress" is stale once the run has ended.
      if (this.notice && this.selected && !this.running.has(this.selected.id)) this.notice = '';
      if (this.selected) await this.#history(this.selected.id);
    } catch (err) {
      this.error = message(err);
    }
    this.loaded = true;
    this.#watchRunning();
  }

  // While a run is in progress nobody may tell us it ended (no live sync): ask now and then.
  #watchRunning() {
    clearTimeout(this.#poll);
    if (this.running.size && this.isConnected) this.#poll = setTimeout(() => void this.reload(), RUNNING_POLL_MS);
  }

  async #history(id: string) {
    const { runs } = await cronsApi.history(id);
    if (this.selected?.id !== id) return;
    this.runs = runs;
    markTaskSeen(id);
  }

  async open(id: string) {
    this.mode = 'read';
    this.confirmDelete = false;
    this.notice = '';
    this.openRun = null;
    this.runs = [];
    this.selected = this.jobs.find((j) => j.id === id) ?? null;
    this.#state.set({ selected: id, run: '' });
    if (this.selected) await this.#history(id).catch((err) => (this.error = message(err)));
  }

  async showRun(filename: string) {
    const job = this.selected;
    if (!job) return;
    try {
      const [detail] = await Promise.all([cronsApi.run(job.id, filename), import('../../chat/hermes-markdown.js')]);
      if (this.selected?.id !== job.id) return;
      this.openRun = detail;
      this.#state.set({ run: filename });
    } catch (err) {
      this.error = message(err);
    }
  }

  download() {
    const run = this.openRun;
    if (!run) return;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([run.content], { type: 'text/markdown' }));
    a.download = run.filename;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 0);
  }

  openSession(id: string) {
    emit(this, 'hermes-open-session', { sessionId: id });
  }

  async #loadChoices() {
    const [models, skills, delivery] = await Promise.all([
      api.models().then(
        (c) => c.models.map((m) => ({ id: m.id, label: m.label })),
        () => [],
      ),
      skillsApi.list().then(
        (r) => r.skills.filter((s) => !s.disabled).map((s) => s.name),
        () => [],
      ),
      cronsApi.deliveryOptions().catch(() => []),
    ]);
    this.choices = { models, skills, delivery };
  }

  create() {
    this.mode = 'create';
    void this.#loadChoices();
  }

  edit() {
    this.mode = 'edit';
    void this.#loadChoices();
  }

  #save = async (fields: CronJobFields) => {
    const editing = this.mode === 'edit' ? this.selected : null;
    const job = editing ? await cronsApi.update(editing.id, fields) : await cronsApi.create(fields);
    await this.reload();
    await this.open(job.id);
  };

  async #act(work: () => Promise<void>) {
    this.busy = true;
    this.error = '';
    try {
      await work();
    } catch (err) {
      this.error = message(err);
    } finally {
      this.busy = false;
    }
  }

  runNow() {
    const job = this.selected;
    if (!job) return;
    void this.#act(async () => {
      const r = await cronsApi.runNow(job.id).catch((err: unknown) => {
        // Refused because a run is in progress, whichever way the server says it.
        if (err instanceof ApiError && err.body.status === 'already_running') return { ok: false as const };
        throw err;
      });
      this.notice = r.ok ? msg('Started. Its output appears under Runs when it ends.') : msg('A run of this task is already in progress.');
      this.running = new Set([...this.running, job.id]);
      this.#watchRunning();
    });
  }

  togglePause() {
    const job = this.selected;
    if (!job) return;
    const paused = job.state === 'paused' || job.enabled === false;
    void this.#act(async () => {
      await (paused ? cronsApi.resume(job.id) : cronsApi.pause(job.id));
      await this.reload();
    });
  }

  duplicate() {
    const job = this.selected;
    if (!job) return;
    void this.#act(async () => {
      const copy = await cronsApi.create({
        prompt: job.prompt,
        schedule: scheduleInput(job),
        name: msg(str`${job.name} (copy)`),
        model: job.model,
        skills: job.skills ?? [],
        deliver: job.deliver || 'local',
      });
      await this.reload();
      await this.open(copy.id);
    });
  }

  askDelete(on: boolean) {
    this.confirmDelete = on;
  }

  deleteJob() {
    const job = this.selected;
    if (!job) return;
    void this.#act(async () => {
      await cronsApi.remove(job.id);
      this.selected = null;
      this.confirmDelete = false;
      this.#state.set({ selected: '', run: '' });
      await this.reload();
    });
  }

  #detail() {
    if (this.mode === 'read') return taskDetail(this);
    return html`<hermes-task-form
      .job=${this.mode === 'edit' ? this.selected : null}
      .choices=${this.choices}
      .save=${this.#save}
      .cancel=${() => (this.mode = 'read')}
    ></hermes-task-form>`;
  }

  override render() {
    const empty = this.loaded && !this.jobs.length;
    return html`<section data-role="panel" data-panel="tasks">
      <header class="panel-head">
        <h2>${msg('Tasks')}</h2>
        <button type="button" class="primary" data-role="task-new" @click=${() => this.create()}>${msg('New task')}</button>
      </header>
      ${this.scheduler ? html`<p class="who" data-role="tasks-scheduler" data-kind=${this.scheduler.kind}>${whoRuns(this.scheduler)}</p>` : nothing}
      ${this.error ? html`<div class="error" role="alert" data-role="task-error">${this.error}</div>` : nothing}
      ${
        empty && this.mode === 'read'
          ? html`<div class="empty" data-role="tasks-empty">
            <p>${icons.tasks(24)}</p>
            <p>${msg('No scheduled tasks yet.')}</p>
            <p class="muted">${msg('A task runs a prompt on a schedule — every morning at 9, every 2 hours — in a new session.')}</p>
            <button type="button" class="primary" data-role="tasks-empty-new" @click=${() => this.create()}>${msg('New task')}</button>
          </div>`
          : html`<div class="split">
            <div class="list" role="listbox" aria-label=${msg('Tasks')} data-role="task-list">${this.jobs.map((j) => taskRow(this, j))}</div>
            <div class="detail">${this.#detail()}</div>
          </div>`
      }
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-tasks-panel': HermesTasksPanel;
  }
}
