import { msg, str } from '@lit/localize';
import { speech } from '../api/voice.js';
import type { Settings } from '../api/client.js';
import { speakableText } from './speakable-text.js';

/**
 * "Read aloud" for an answer, loaded on the first click: the browser's speech synthesis, or,
 * when `tts_engine` names a server engine, POST /api/tts and an <audio> playing its answer.
 * One answer speaks at a time: starting another stops the first (its `ended` runs).
 */

export interface ReadingHandlers {
  ended(): void;
  failed(message: string): void;
}

/** The most the server reads at once (its limit, the incumbent's). */
const SERVER_MAX_CHARS = 5000;

let current: { stop(): void } | null = null;

export function stopReading(): void {
  const playing = current;
  current = null;
  playing?.stop();
}

export function readAloud(markdown: string, settings: Partial<Settings> | null | undefined, h: ReadingHandlers): void {
  stopReading();
  const text = speakableText(markdown);
  let done = false;
  let reading: { stop(): void } | null = null;
  const finish = (message?: string) => {
    if (done) return;
    done = true;
    if (current === reading) current = null;
    if (message) h.failed(message);
    else h.ended();
  };
  if (!text) {
    finish(msg('Nothing to read aloud'));
    return;
  }
  const engine = String(settings?.tts_engine || 'browser').toLowerCase();
  const voice = String(settings?.tts_voice ?? '');
  reading = engine === 'browser' ? browserVoice(text, settings, voice, finish) : serverVoice(text, engine, voice, finish);
  if (!done) current = reading;
}

function browserVoice(text: string, settings: Partial<Settings> | null | undefined, voice: string, finish: (message?: string) => void) {
  if (!('speechSynthesis' in window)) {
    finish(msg('This browser cannot read aloud'));
    return { stop: () => {} };
  }
  const utterance = new SpeechSynthesisUtterance(text);
  const rate = Number(settings?.tts_rate ?? 1);
  const pitch = Number(settings?.tts_pitch ?? 1);
  if (Number.isFinite(rate) && rate > 0) utterance.rate = rate;
  if (Number.isFinite(pitch) && pitch >= 0) utterance.pitch = pitch;
  const chosen = voice ? speechSynthesis.getVoices().find((v) => v.name === voice || v.voiceURI === voice) : undefined;
  if (chosen) utterance.voice = chosen;
  utterance.onend = () => finish();
  utterance.onerror = (e) => finish(e.error === 'interrupted' || e.error === 'canceled' ? undefined : msg(str`Read aloud stopped (${e.error})`));
  speechSynthesis.cancel();
  speechSynthesis.speak(utterance);
  return {
    stop: () => {
      speechSynthesis.cancel();
      finish();
    },
  };
}

function serverVoice(text: string, engine: string, voice: string, finish: (message?: string) => void) {
  const abort = new AbortController();
  let audio: HTMLAudioElement | null = null;
  let url = '';
  const release = () => {
    audio?.pause();
    if (url) URL.revokeObjectURL(url);
    url = '';
  };
  const end = (message?: string) => {
    release();
    finish(message);
  };
  speech({ text: text.slice(0, SERVER_MAX_CHARS), engine, ...(voice ? { voice } : {}) }, abort.signal).then(
    (blob) => {
      if (abort.signal.aborted) return;
      url = URL.createObjectURL(blob);
      audio = new Audio(url);
      audio.onended = () => end();
      audio.onerror = () => end(msg('The audio could not be played'));
      audio.play().catch((err: Error) => end(err.name === 'AbortError' ? undefined : msg('The audio could not be played')));
    },
    (err: Error) => {
      if (!abort.signal.aborted) end(err.message);
    },
  );
  return {
    stop: () => {
      abort.abort();
      end();
    },
  };
}
