import { LitElement, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { baseStyles } from '../../shared/styles.js';
import { cronsApi, type CronJobFields, type CronJobRow } from '../../api/crons.js';
import { absolute, relative, scheduleInput } from './task-format.js';
import { tasksStyles } from './tasks-styles.js';

/** What the form offers beside free text (loaded once by the panel). */
export interface TaskFormChoices {
  models: Array<{ id: string; label: string }>;
  skills: string[];
  delivery: Array<{ value: string; label: string }>;
}

const PREVIEW_WAIT_MS = 300;
const EXAMPLES = ['every 2h', '0 9 * * *', '30m', '2026-12-24T09:00'];
/** The form's `data-mode` hook values. */
const MODES = ['create', 'edit'] as const;

/**
 * Create or edit one task: prompt, schedule (with the server's next three runs as you type, and
 * its reason when it cannot parse), name, model, skills, delivery. Save stays off while the
 * schedule is not understood; a refusal keeps everything as typed.
 */
@customElement('hermes-task-form')
@localized()
export class HermesTaskForm extends LitElement {
  static override styles = [baseStyles, tasksStyles];

  /** The job being edited; null creates one. */
  @property({ attribute: false }) job: CronJobRow | null = null;
  @property({ attribute: false }) choices: TaskFormChoices = { models: [], skills: [], delivery: [] };
  /** Called with the fields to store; a rejection's message is shown and the form kept. */
  @property({ attribute: false }) save: (fields: CronJobFields) => Promise<void> = async () => {};
  @property({ attribute: false }) cancel: () => void = () => {};

  @state() schedule = '';
  @state() skills = new Set<string>();
  @state() preview: { display: string; next_runs: string[] } | null = null;
  @state() previewError = '';
  @state() checking = false;
  @state() error = '';
  @state() busy = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #asking: AbortController | null = null;

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('job')) {
      this.schedule = this.job ? scheduleInput(this.job) : '';
      this.skills = new Set(this.job?.skills ?? []);
      this.error = '';
      this.#check(this.schedule, 0);
    }
  }

  override disconnectedCallback() {
    clearTimeout(this.#timer);
    this.#asking?.abort();
    super.disconnectedCallback();
  }

  #check(text: string, wait = PREVIEW_WAIT_MS) {
    clearTimeout(this.#timer);
    this.#asking?.abort();
    this.preview = null;
    this.previewError = '';
    if (!text.trim()) {
      this.checking = false;
      return;
    }
    this.checking = true;
    this.#timer = setTimeout(() => {
      const asking = new AbortController();
      this.#asking = asking;
      cronsApi.preview(text.trim(), asking.signal).then(
        (p) => {
          if (asking.signal.aborted) return;
          this.preview = p;
          this.checking = false;
        },
        (err: Error) => {
          if (asking.signal.aborted) return;
          this.previewError = err.message;
          this.checking = false;
        },
      );
    }, wait);
  }

  async #submit(e: Event) {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    const text = (k: string) => String(data.get(k) ?? '').trim();
    const fields: CronJobFields = {
      prompt: text('prompt'),
      schedule: this.schedule.trim(),
      name: text('name') || null,
      model: text('model') || null,
      skills: [...this.skills],
      deliver: text('deliver') || 'local',
    };
    // An unchanged schedule is not sent again: a one-shot time already past would be refused.
    if (this.job && fields.schedule === scheduleInput(this.job)) delete (fields as Partial<CronJobFields>).schedule;
    this.busy = true;
    this.error = '';
    try {
      await this.save(fields);
    } catch (err) {
      this.error = err instanceof Error ? err.message : String(err);
    } finally {
      this.busy = false;
    }
  }

  #toggleSkill(name: string, on: boolean) {
    const next = new Set(this.skills);
    if (on) next.add(name);
    else next.delete(name);
    this.skills = next;
  }

  #previewView() {
    if (this.previewError) return html`<p class="hint bad" role="alert" data-role="task-schedule-error">${this.previewError}</p>`;
    if (!this.preview)
      return html`<p class="hint muted">${this.checking ? msg('Checking…') : html`${msg('e.g.')} ${EXAMPLES.map((x, i) => html`${i ? ', ' : ''}<code>${x}</code>`)}`}</p>`;
    return html`<div class="hint" data-role="task-schedule-preview">
      <span>${this.preview.display}</span>
      ${
        this.preview.next_runs.length
          ? html`<ol class="next-runs">
            ${this.preview.next_runs.slice(0, 3).map((iso) => {
              const at = new Date(iso);
              return html`<li data-role="task-next-run" title=${iso}>${absolute(at)} <span class="muted">(${relative(at)})</span></li>`;
            })}
          </ol>`
          : html`<span class="muted"> · ${msg('no further runs')}</span>`
      }
    </div>`;
  }

  override render() {
    const job = this.job;
    const models = this.choices.models;
    const model = job?.model ?? '';
    const skills = [...new Set([...this.choices.skills, ...this.skills])];
    const delivery = this.choices.delivery.length ? this.choices.delivery : [{ value: 'local', label: msg('Local (save output only)') }];
    const canSave = !this.busy && !this.checking && !this.previewError && !!this.schedule.trim();
    return html`<form data-role="task-form" data-mode=${MODES[job ? 1 : 0]} @submit=${this.#submit}>
      <h3>${job ? msg(str`Edit ${job.name}`) : msg('New task')}</h3>
      <label>${msg('Prompt')}<textarea name="prompt" data-role="task-form-prompt" rows="6" required .value=${job?.prompt ?? ''}></textarea></label>
      <label
        >${msg('Schedule')}<input
          name="schedule"
          data-role="task-form-schedule"
          required
          autocomplete="off"
          placeholder=${msg(str`${EXAMPLES.slice(0, 3).join(', ')} or an ISO time`)}
          .value=${this.schedule}
          @input=${(e: Event) => {
            this.schedule = (e.target as HTMLInputElement).value;
            this.#check(this.schedule);
          }}
      /></label>
      ${this.#previewView()}
      <label>${msg('Name')}<input name="name" data-role="task-form-name" autocomplete="off" placeholder=${msg('Optional')} .value=${job?.name ?? ''} /></label>
      <label
        >${msg('Model')}<select name="model" data-role="task-form-model">
          <option value="" ?selected=${!model}>${msg('Default model')}</option>
          ${models.map((m) => html`<option value=${m.id} ?selected=${m.id === model}>${m.label}</option>`)}
          ${model && !models.some((m) => m.id === model) ? html`<option value=${model} selected>${model}</option>` : nothing}
        </select></label
      >
      ${
        skills.length
          ? html`<fieldset data-role="task-form-skills">
            <legend>${msg('Skills')}</legend>
            ${skills.map(
              (s) =>
                html`<label class="check"
                  ><input
                    type="checkbox"
                    value=${s}
                    .checked=${this.skills.has(s)}
                    @change=${(e: Event) => this.#toggleSkill(s, (e.target as HTMLInputElement).checked)}
                  />${s}</label
                >`,
            )}
          </fieldset>`
          : nothing
      }
      <label
        >${msg('Delivery')}<select name="deliver" data-role="task-form-deliver">
          ${delivery.map((d) => html`<option value=${d.value} ?selected=${d.value === (job?.deliver ?? 'local')}>${d.label}</option>`)}
        </select></label
      >
      ${this.error ? html`<div class="error" role="alert" data-role="task-form-error">${this.error}</div>` : nothing}
      <div class="actions">
        <button type="button" data-role="task-form-cancel" @click=${() => this.cancel()}>${msg('Cancel')}</button>
        <button type="submit" class="primary" data-role="task-form-save" ?disabled=${!canSave}>${msg('Save')}</button>
      </div>
    </form>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-task-form': HermesTaskForm;
  }
}
