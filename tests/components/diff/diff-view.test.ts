import { expect, cleanup, fixture } from '../helpers.js';
import { parseUnifiedDiff, type HermesDiffView } from '../../../components/diff/hermes-diff-view.js';
import '../../../components/diff/hermes-diff-view.js';

const DIFF = [
  'diff --git a/src/app.ts b/src/app.ts',
  'index 83db48f..bf269f4 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -10,3 +10,4 @@ export function main() {',
  ' const a = 1;',
  '-const b = 2;',
  '+const b = 3;',
  '+const c = "<b>4</b>";',
  ' return a;',
  '\\ No newline at end of file',
].join('\n');

describe('hermes-diff-view', () => {
  afterEach(cleanup);

  it('reads a unified diff into numbered lines, dropping the file headers', () => {
    const lines = parseUnifiedDiff(DIFF);
    expect(lines.map((l) => l.kind)).to.deep.equal(['hunk', 'context', 'del', 'add', 'add', 'context', 'note']);
    expect(lines[1]).to.include({ oldNo: 10, newNo: 10, text: 'const a = 1;' });
    expect(lines[2]).to.include({ oldNo: 11, text: 'const b = 2;' });
    expect(lines[3]).to.include({ newNo: 11, text: 'const b = 3;' });
    expect(lines[5]).to.include({ oldNo: 12, newNo: 13 });
    expect(lines[6].text).to.equal('No newline at end of file');
  });

  it('draws added and removed lines apart, and markup in the diff as text', async () => {
    const el = await fixture<HermesDiffView>('hermes-diff-view', { diff: DIFF });
    const root = el.shadowRoot!;
    expect(root.querySelectorAll('[data-kind="add"]').length).to.equal(2);
    expect(root.querySelectorAll('[data-kind="del"]').length).to.equal(1);
    expect(root.querySelector('b')).to.equal(null);
    expect(root.textContent).to.contain('const c = "<b>4</b>";');
  });

  it('says so when there is nothing to show', async () => {
    const el = await fixture<HermesDiffView>('hermes-diff-view', { empty: 'Binary file' });
    expect(el.shadowRoot!.querySelector('[data-role="diff-empty"]')!.textContent).to.equal('Binary file');
  });
});
