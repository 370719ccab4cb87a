import { html, nothing } from 'lit';
import { msg, str } from '@lit/localize';
import type { SkillDetail } from '../../api/skills.js';
import { isMarkdownPath, splitSkill } from './skill-text.js';

/** What the detail and form views need from the panel. */
export interface SkillViewHost {
  detail: SkillDetail | null;
  file: { path: string; content: string } | null;
  confirmDelete: boolean;
  busy: boolean;
  formError: string;
  openFile(path: string): void;
  closeFile(): void;
  edit(): void;
  askDelete(on: boolean): void;
  deleteSkill(): void;
  submit(form: HTMLFormElement): void;
  cancelForm(): void;
}

const GROUPS = ['references', 'templates', 'scripts', 'assets'] as const;
/** A file name and a name example: code, the same in every language. */
const SKILL_FILE = 'SKILL.md';
const NAME_EXAMPLE = 'my-skill';
/** The form's `data-mode` hook values. */
const MODES = ['create', 'edit'] as const;

/** The open skill: its SKILL.md rendered, its front matter folded away, its linked files. */
export function detailView(h: SkillViewHost) {
  const d = h.detail;
  if (!d) return html`<p class="empty">${msg('Pick a skill to read it.')}</p>`;
  if (h.file) return fileView(h, d.name, h.file);
  const { frontmatter, body } = splitSkill(d.content);
  const groups = GROUPS.filter((g) => d.linked_files[g]?.length);
  return html`<article data-role="skill-detail" data-skill=${d.name}>
    <div class="detail-head">
      <h3>${d.name}</h3>
      ${d.category ? html`<span class="chip">${d.category}</span>` : nothing}
      ${d.disabled ? html`<span class="chip">${msg('disabled')}</span>` : nothing}
      ${
        d.read_only
          ? html`<span class="chip" title=${msg('From skills.external_dirs')}>${msg('read-only')}</span>`
          : html`<button type="button" data-role="skill-edit" @click=${() => h.edit()}>${msg('Edit')}</button>
            <button type="button" data-role="skill-delete" @click=${() => h.askDelete(true)}>${msg('Delete')}</button>`
      }
    </div>
    ${
      h.confirmDelete
        ? html`<div class="confirm" role="alertdialog" aria-label=${msg('Delete skill')} data-role="skill-delete-confirm">
          <span style="flex:1">${msg(str`Delete the skill “${d.name}” and its folder?`)}</span>
          <button type="button" class="primary" data-role="skill-delete-yes" ?disabled=${h.busy} @click=${() => h.deleteSkill()}>${msg('Delete')}</button>
          <button type="button" data-role="skill-delete-no" @click=${() => h.askDelete(false)}>${msg('Cancel')}</button>
        </div>`
        : nothing
    }
    ${frontmatter ? html`<details class="fm"><summary class="muted">${msg('Front matter')}</summary><pre>${frontmatter}</pre></details>` : nothing}
    <hermes-markdown data-role="skill-body" .text=${body || msg('(no content)')}></hermes-markdown>
    ${
      groups.length
        ? html`<section class="files" aria-label=${msg('Linked files')}>
          ${groups.map(
            (g) => html`<h4>${g}</h4>
              ${d.linked_files[g]!.map((f) => html`<button type="button" data-role="skill-file" data-file=${f} @click=${() => h.openFile(f)}>${f}</button>`)}`,
          )}
        </section>`
        : nothing
    }
  </article>`;
}

function fileView(h: SkillViewHost, name: string, file: { path: string; content: string }) {
  return html`<article data-role="skill-file-view" data-file=${file.path}>
    <div class="detail-head">
      <button type="button" data-role="skill-file-back" @click=${() => h.closeFile()}>← ${name}</button>
      <h3>${file.path}</h3>
    </div>
    ${isMarkdownPath(file.path) ? html`<hermes-markdown .text=${file.content}></hermes-markdown>` : html`<pre class="file">${file.content}</pre>`}
  </article>`;
}

/** Create (name, category, description, body) or edit (the whole SKILL.md, as Hermes stores it). */
export function formView(h: SkillViewHost, editing: SkillDetail | null) {
  const onSubmit = (e: Event) => {
    e.preventDefault();
    h.submit(e.currentTarget as HTMLFormElement);
  };
  return html`<form data-role="skill-form" data-mode=${MODES[editing ? 1 : 0]} @submit=${onSubmit}>
    <h3>${editing ? msg(str`Edit ${editing.name}`) : msg('New skill')}</h3>
    ${
      editing
        ? html`<label>${SKILL_FILE}<textarea name="content" data-role="skill-form-content" rows="20" .value=${editing.content}></textarea></label>`
        : html`<label>${msg('Name')}<input name="name" data-role="skill-form-name" required autocomplete="off" placeholder=${NAME_EXAMPLE} /></label>
          <label>${msg('Category')}<input name="category" data-role="skill-form-category" autocomplete="off" placeholder=${msg('Optional, e.g. devops')} /></label>
          <label>${msg('Description')}<input name="description" data-role="skill-form-description" required autocomplete="off" /></label>
          <label>${msg('Instructions (markdown)')}<textarea name="body" data-role="skill-form-body" rows="14" required></textarea></label>`
    }
    ${h.formError ? html`<div class="error" role="alert" data-role="skill-form-error">${h.formError}</div>` : nothing}
    <div class="actions">
      <button type="button" data-role="skill-form-cancel" @click=${() => h.cancelForm()}>${msg('Cancel')}</button>
      <button type="submit" class="primary" data-role="skill-form-save" ?disabled=${h.busy}>${msg('Save')}</button>
    </div>
  </form>`;
}
