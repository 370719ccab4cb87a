import { msg } from '@lit/localize';
import { pushApi } from '../api/push.js';

/** Whether this device gets Web Push, and if it cannot, why (said as it is). */
export interface PushState {
  supported: boolean;
  subscribed: boolean;
  /** Why the switch is off or disabled; '' when there is nothing to say. */
  note: string;
}

/** The device's push subscription, both sides (browser and server); tests pass their own. */
export interface PushDevice {
  state(): Promise<PushState>;
  /** From the click that turned it on: asks permission, subscribes, tells the server. */
  enable(): Promise<PushState>;
  disable(): Promise<PushState>;
}

const unsupported = (note: string): PushState => ({ supported: false, subscribed: false, note });

/** iPhone and iPad deliver Web Push only to an app added to the Home Screen. */
function iosBrowserTab(): boolean {
  const ios = /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
  const installed = matchMedia('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true;
  return ios && !installed;
}

/** The VAPID key as bytes (Safari and Firefox take no base64url string). */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  return Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
}

async function registration(): Promise<ServiceWorkerRegistration | PushState> {
  if (iosBrowserTab()) return unsupported(msg('On iPhone and iPad, add Hermes to the Home Screen, open it from there and turn this on.'));
  if (!window.isSecureContext) return unsupported(msg('Push needs the app over HTTPS (or on this machine).'));
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return unsupported(msg('This browser cannot receive push notifications.'));
  }
  const reg = await navigator.serviceWorker.getRegistration('/');
  if (!reg) return unsupported(msg('The app’s service worker is not running here (a private window?), so nothing can arrive while it is closed.'));
  return reg;
}

const denied = (): PushState => ({
  supported: true,
  subscribed: false,
  note: msg('The browser blocks notifications for this site; allow them in its site settings.'),
});

export const browserPushDevice: PushDevice = {
  async state() {
    const reg = await registration();
    if (!(reg instanceof ServiceWorkerRegistration)) return reg;
    if (Notification.permission === 'denied') return denied();
    const sub = await reg.pushManager.getSubscription();
    return { supported: true, subscribed: !!sub, note: '' };
  },
  async enable() {
    const reg = await registration();
    if (!(reg instanceof ServiceWorkerRegistration)) return reg;
    if ((await Notification.requestPermission()) !== 'granted') return denied();
    const { public_key } = await pushApi.vapidKey();
    const sub =
      (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) }));
    try {
      await pushApi.subscribe(sub.toJSON());
    } catch (err) {
      // The server did not keep it: the browser's half would only mislead.
      await sub.unsubscribe().catch(() => false);
      throw err;
    }
    return { supported: true, subscribed: true, note: '' };
  },
  async disable() {
    const reg = await registration();
    if (!(reg instanceof ServiceWorkerRegistration)) return reg;
    const sub = await reg.pushManager.getSubscription();
    if (sub) {
      await pushApi.unsubscribe(sub.endpoint).catch(() => {});
      await sub.unsubscribe();
    }
    return { supported: true, subscribed: false, note: '' };
  },
};
