import { cleanup, expect, fixture, waitFor } from '../helpers.js';
import '../../../components/settings/hermes-push-setting.js';
import { PushSettingModel } from '../../../components/settings/hermes-push-setting.js';
import { browserPushDevice, type PushDevice, type PushState } from '../../../components/settings/push-device.js';

/** A device whose answers the test sets, recording what the switch asked of it. */
function fakeDevice(initial: PushState, fail?: string) {
  const calls: string[] = [];
  let current = initial;
  const device: PushDevice = {
    state: async () => (calls.push('state'), current),
    enable: async () => {
      calls.push('enable');
      if (fail) throw new Error(fail);
      return (current = { ...current, subscribed: true });
    },
    disable: async () => (calls.push('disable'), (current = { ...current, subscribed: false })),
  };
  return { device, calls };
}

async function mountRow(model: PushSettingModel) {
  const toggle = await fixture<HTMLElement>('hermes-push-setting', { model, view: 'toggle' });
  const status = await fixture<HTMLElement>('hermes-push-setting', { model, view: 'status' });
  const input = () => toggle.querySelector<HTMLInputElement>('[data-role="push-toggle"]')!;
  const line = () => status.querySelector('[data-role="push-status"]')!.textContent!.trim();
  return { input, line };
}

describe('Notifications on this device', () => {
  afterEach(cleanup);

  it('turns push on and off through the device, the status line following', async () => {
    const { device, calls } = fakeDevice({ supported: true, subscribed: false, note: '' });
    const { input, line } = await mountRow(new PushSettingModel(device));
    await waitFor(() => line() === 'Off for this device.');
    expect(input().disabled).to.equal(false);
    expect(input().checked).to.equal(false);
    input().click();
    await waitFor(() => line().startsWith('On:'));
    expect(input().checked).to.equal(true);
    input().click();
    await waitFor(() => line() === 'Off for this device.');
    expect(input().checked).to.equal(false);
    // One state read for both cells, then exactly what the clicks asked.
    expect(calls).to.deep.equal(['state', 'enable', 'disable']);
  });

  it('says why when the browser cannot, and offers no switch to flip', async () => {
    const { device } = fakeDevice({ supported: false, subscribed: false, note: 'This browser cannot receive push notifications.' });
    const { input, line } = await mountRow(new PushSettingModel(device));
    await waitFor(() => line() === 'This browser cannot receive push notifications.');
    expect(input().disabled).to.equal(true);
  });

  it('shows a failed subscribe and leaves the switch off', async () => {
    const { device } = fakeDevice({ supported: true, subscribed: false, note: '' }, 'push is not configured');
    const { input, line } = await mountRow(new PushSettingModel(device));
    await waitFor(() => line() === 'Off for this device.');
    input().click();
    await waitFor(() => line().includes('push is not configured'));
    expect(input().checked).to.equal(false);
  });

  it('in a page without the app’s service worker, the real device says so honestly', async () => {
    const state = await browserPushDevice.state();
    expect(state.supported).to.equal(false);
    expect(state.subscribed).to.equal(false);
    expect(state.note).to.contain('service worker is not running');
  });
});
