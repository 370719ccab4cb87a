import { expect, fixture, cleanup, waitFor } from './helpers.js';
import '../../components/app/hermes-app.js';

describe('component test setup', () => {
  afterEach(cleanup);

  it('renders the app shell in Chromium with its layout and hooks', async () => {
    const el = await fixture<HTMLElement>('hermes-app');
    const root = el.shadowRoot!;
    // At `/` the app first asks whether to show the onboarding wizard (unanswered here: the app).
    await waitFor(() => expect(root.querySelector('.layout')).to.exist);
    expect(root.querySelector('hermes-chat-view')).to.exist;
    expect(root.querySelector('[data-role="open-settings"]')).to.exist;
  });
});
