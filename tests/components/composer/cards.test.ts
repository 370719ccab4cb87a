import { expect, fixture, cleanup } from '../helpers.js';
import '../../../components/composer/hermes-approval-card.js';
import '../../../components/composer/hermes-clarify-card.js';
import type { HermesApprovalCard } from '../../../components/composer/hermes-approval-card.js';
import type { HermesClarifyCard } from '../../../components/composer/hermes-clarify-card.js';
import { ChatStore } from '../../../components/state/chat-store.js';

function approvalChat(pending_count = 1) {
  const chat = new ChatStore();
  const answers: string[] = [];
  chat.approval = {
    approval_id: 'a1',
    command: 'rm -rf build && ' + 'x'.repeat(400),
    description: 'recursive delete',
    pattern_keys: ['recursive delete'],
    choices: ['once', 'session', 'always', 'deny'],
    pending_count,
  };
  chat.answerApproval = async (choice) => void answers.push(choice);
  return { chat, answers };
}

/** Mounts inside a 360px-wide box (the phone layout's width). */
async function narrow<T extends HTMLElement>(tag: string, props: Record<string, unknown>) {
  const el = await fixture<T>(tag, props);
  el.style.width = '360px';
  el.style.display = 'block';
  await (el as any).updateComplete;
  return el;
}

describe('hermes-approval-card', () => {
  afterEach(cleanup);

  it('shows the command, description and the four choices; each button answers its choice', async () => {
    const { chat, answers } = approvalChat();
    const el = await fixture<HermesApprovalCard>('hermes-approval-card', { chat });
    const root = el.shadowRoot!;
    expect(root.querySelector('[data-role="approval-card"]')).to.exist;
    expect(root.querySelector('[data-role="approval-command"]')!.textContent).to.contain('rm -rf build');
    expect(root.textContent).to.contain('recursive delete');
    expect(root.querySelector('[data-role="approval-count"]')).to.equal(null);
    const buttons = [...root.querySelectorAll<HTMLButtonElement>('[data-choice]')];
    expect(buttons.map((b) => [b.dataset.choice, b.textContent!.trim()])).to.deep.equal([
      ['once', 'Allow once'],
      ['session', 'Allow for session'],
      ['always', 'Always'],
      ['deny', 'Deny'],
    ]);
    for (const b of buttons) b.click();
    expect(answers).to.deep.equal(['once', 'session', 'always', 'deny']);
  });

  it('takes focus on the primary button, and Enter in the card means Allow once', async () => {
    const { chat, answers } = approvalChat();
    const el = await fixture<HermesApprovalCard>('hermes-approval-card', { chat });
    expect((el.shadowRoot!.activeElement as HTMLElement).dataset.choice).to.equal('once');
    const card = el.shadowRoot!.querySelector('[data-role="approval-card"]')!;
    card.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true, cancelable: true }));
    expect(answers).to.deep.equal(['once']);
  });

  it('says "1 of n" when more approvals wait', async () => {
    const { chat } = approvalChat(3);
    const el = await fixture<HermesApprovalCard>('hermes-approval-card', { chat });
    expect(el.shadowRoot!.querySelector('[data-role="approval-count"]')!.textContent).to.equal('1 of 3');
  });

  it('fits 360px: buttons wrap, a long command wraps inside the card', async () => {
    const { chat } = approvalChat();
    const el = await narrow<HermesApprovalCard>('hermes-approval-card', { chat });
    const card = el.shadowRoot!.querySelector<HTMLElement>('[data-role="approval-card"]')!;
    expect(card.scrollWidth).to.be.at.most(360);
    const right = card.getBoundingClientRect().right;
    for (const b of el.shadowRoot!.querySelectorAll('[data-choice]')) expect(b.getBoundingClientRect().right).to.be.at.most(right);
  });
});

describe('hermes-approval-card with a file edit', () => {
  afterEach(cleanup);

  const DIFF = ['--- a/notes.txt', '+++ b/notes.txt', '@@ -1,2 +1,2 @@', ' keep', '-old line', '+new line', ''].join('\n');

  function editChat(diff: string) {
    const chat = new ChatStore();
    const answers: string[] = [];
    chat.approval = {
      approval_id: 'e1',
      command: 'patch notes.txt',
      description: 'Edit outside the workspace: /srv/notes.txt',
      pattern_keys: ['file-edit:/srv/notes.txt'],
      choices: ['once', 'session', 'deny'],
      diff,
      path: '/srv/notes.txt',
      pending_count: 1,
    };
    chat.answerApproval = async (choice) => void answers.push(choice);
    return { chat, answers };
  }

  it('shows the path and the diff lines instead of the command, with the three choices', async () => {
    const { chat, answers } = editChat(DIFF);
    const el = await fixture<HermesApprovalCard>('hermes-approval-card', { chat });
    await customElements.whenDefined('hermes-diff-view');
    const root = el.shadowRoot!;
    expect(root.querySelector('[data-role="approval-command"]')).to.equal(null);
    expect(root.querySelector('[data-role="approval-path"]')!.textContent).to.equal('/srv/notes.txt');
    const view = root.querySelector('[data-role="approval-diff"] hermes-diff-view') as HTMLElement & { updateComplete: Promise<unknown> };
    await view.updateComplete;
    const rows = [...view.shadowRoot!.querySelectorAll<HTMLElement>('.line')].map((l) => [l.dataset.kind, l.querySelector('.text')?.textContent ?? '']);
    expect(rows.filter(([k]) => k === 'del' || k === 'add')).to.deep.equal([
      ['del', 'old line'],
      ['add', 'new line'],
    ]);
    const buttons = [...root.querySelectorAll<HTMLButtonElement>('[data-choice]')].map((b) => b.dataset.choice);
    expect(buttons).to.deep.equal(['once', 'session', 'deny']);
    // Keyboard as for a command: focus on "Allow once", the diff a Tab stop of its own.
    expect((root.activeElement as HTMLElement).dataset.choice).to.equal('once');
    expect(root.querySelector<HTMLElement>('[data-role="approval-diff"]')!.tabIndex).to.equal(0);
    (root.querySelector('[data-choice="deny"]') as HTMLButtonElement).click();
    expect(answers).to.deep.equal(['deny']);
  });

  it('a long diff scrolls inside the card and the buttons stay visible', async () => {
    const long = ['--- /dev/null', '+++ b/big.txt', '@@ -0,0 +1,400 @@', ...Array.from({ length: 400 }, (_, i) => `+line ${i}`), ''].join('\n');
    const { chat } = editChat(long);
    const el = await fixture<HermesApprovalCard>('hermes-approval-card', { chat });
    await customElements.whenDefined('hermes-diff-view');
    await (el.shadowRoot!.querySelector('hermes-diff-view') as any).updateComplete;
    const box = el.shadowRoot!.querySelector<HTMLElement>('[data-role="approval-diff"]')!;
    expect(box.scrollHeight).to.be.greaterThan(box.clientHeight);
    expect(box.clientHeight).to.be.at.most(window.innerHeight * 0.4 + 1);
    const deny = el.shadowRoot!.querySelector<HTMLElement>('[data-choice="deny"]')!.getBoundingClientRect();
    expect(deny.bottom).to.be.at.most(window.innerHeight);
  });
});

describe('hermes-clarify-card', () => {
  afterEach(cleanup);

  function clarifyChat(choices: string[]) {
    const chat = new ChatStore();
    const answers: string[] = [];
    chat.clarify = { clarify_id: 'c1', question: 'Which environment?', choices_offered: choices };
    chat.answerClarify = async (a) => void answers.push(a);
    return { chat, answers };
  }

  it('shows the question and one button per choice; a choice answers with its text', async () => {
    const { chat, answers } = clarifyChat(['staging', 'production']);
    const el = await fixture<HermesClarifyCard>('hermes-clarify-card', { chat });
    const root = el.shadowRoot!;
    expect(root.querySelector('[data-role="clarify-card"]')!.textContent).to.contain('Which environment?');
    const buttons = [...root.querySelectorAll<HTMLButtonElement>('[data-choice]')];
    expect(buttons.map((b) => b.textContent)).to.deep.equal(['staging', 'production']);
    buttons[1]!.click();
    expect(answers).to.deep.equal(['production']);
  });

  it('sends a free-text answer (Send is disabled while empty)', async () => {
    const { chat, answers } = clarifyChat([]);
    const el = await fixture<HermesClarifyCard>('hermes-clarify-card', { chat });
    const root = el.shadowRoot!;
    const send = root.querySelector<HTMLButtonElement>('[data-role="clarify-send"]')!;
    expect(send.disabled).to.equal(true);
    const input = root.querySelector<HTMLInputElement>('[data-role="clarify-input"]')!;
    expect(root.activeElement).to.equal(input);
    input.value = '  the preview branch  ';
    input.dispatchEvent(new Event('input'));
    await el.updateComplete;
    send.click();
    expect(answers).to.deep.equal(['the preview branch']);
  });

  it('fits 360px', async () => {
    const { chat } = clarifyChat(['a fairly long first option', 'another long option here', 'third']);
    const el = await narrow<HermesClarifyCard>('hermes-clarify-card', { chat });
    const card = el.shadowRoot!.querySelector<HTMLElement>('[data-role="clarify-card"]')!;
    expect(card.scrollWidth).to.be.at.most(360);
  });
});
