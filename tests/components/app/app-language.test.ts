import { expect } from '../helpers.js';
import { applyLanguage } from '../../../components/i18n/localization.js';
import { renderMarkdown } from '../../../components/render/markdown.js';
import { subagentsFromResult } from '../../../components/state/subagents.js';

describe('the app’s own words in another language', () => {
  afterEach(async () => {
    await applyLanguage('en');
  });

  it('shows the copy button and the browser-made texts in German, with German numbers', async () => {
    await applyLanguage('de');
    const tpl = document.createElement('template');
    tpl.innerHTML = renderMarkdown('```sh\nls\n```').html;
    const copy = tpl.content.querySelector('[data-role="copy-code"]')!;
    expect(copy.textContent).to.equal('Kopieren');
    expect(copy.getAttribute('aria-label')).to.equal('Code kopieren');
    // A task without a goal is named by its number, written the language's way.
    const [task] = subagentsFromResult({ tasks: [] }, JSON.stringify({ results: [{ task_index: 1233, session_id: 's1', status: 'completed' }] }), 'p');
    expect(task!.goal).to.equal('Aufgabe 1.234');

    // Back in English: the rendered block is not served from the German cache entry.
    await applyLanguage('en');
    tpl.innerHTML = renderMarkdown('```sh\nls\n```').html;
    expect(tpl.content.querySelector('[data-role="copy-code"]')!.textContent).to.equal('Copy');
  });
});
