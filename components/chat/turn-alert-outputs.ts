/** What a finished turn plays and shows (loaded on first use by turn-alerts.ts). */
import { notificationTag } from '../../src/shared/push-payload.js';

/** A short two-note chime made on the spot (WebAudio, no asset file), the incumbent's 660 → 880 Hz. */
export function playChime(): void {
  const Ctx = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctx) return;
  try {
    const ctx = new Ctx();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.connect(gain);
    gain.connect(ctx.destination);
    osc.type = 'sine';
    osc.frequency.setValueAtTime(660, ctx.currentTime);
    osc.frequency.setValueAtTime(880, ctx.currentTime + 0.1);
    gain.gain.setValueAtTime(0.3, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.01, ctx.currentTime + 0.3);
    osc.onended = () => void ctx.close();
    osc.start(ctx.currentTime);
    osc.stop(ctx.currentTime + 0.3);
  } catch {
    /* no audio output (autoplay policy, no device): silence is fine */
  }
}

/** Asks for notification permission (from the click that turned the setting on); true when granted. */
export async function askNotificationPermission(): Promise<boolean> {
  if (!('Notification' in window)) return false;
  if (Notification.permission !== 'default') return Notification.permission === 'granted';
  return (await Notification.requestPermission()) === 'granted';
}

/** `tag`: the one a Web Push for the same turn carries, so only one of the two shows. */
export function showNotification(title: string, body: string, sessionId?: string): void {
  const tag = sessionId ? notificationTag('turn', sessionId) : 'hermes-turn';
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  try {
    const n = new Notification(title, { body, tag });
    n.onclick = () => {
      window.focus();
      n.close();
    };
  } catch {
    /* some browsers only allow notifications from a service worker: none then */
  }
}
