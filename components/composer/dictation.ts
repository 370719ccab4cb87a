import { msg, str } from '@lit/localize';
import { transcribe, transcribeCapability } from '../api/voice.js';

/**
 * Dictation for the composer's mic, loaded on its first use: the browser's own speech
 * recognition where it has one, otherwise the microphone recorded (MediaRecorder) and sent to
 * POST /api/transcribe. A recogniser that cannot reach its service (Chromium without Google's
 * keys says `network`) hands over to the recorder, and this page keeps using the recorder.
 */

/** `opening`: asking the server and the browser for the microphone; `recording`: audio is being kept. */
export type DictationPhase = 'listening' | 'opening' | 'recording' | 'transcribing' | 'idle';

export interface DictationHandlers {
  /** Finished text (one phrase, or the whole recording's transcript). */
  text(text: string): void;
  phase(phase: DictationPhase): void;
  /** A short sentence for the inline note; the phase goes idle after it. */
  error(message: string): void;
}

export interface Dictation {
  /** Stops listening; a recording is still transcribed. */
  stop(): void;
  /** Stops and drops what was not yet turned into text. */
  cancel(): void;
}

interface Recognition {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((e: { resultIndex: number; results: ArrayLike<{ isFinal: boolean; 0: { transcript: string } }> }) => void) | null;
  onerror: ((e: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
type RecognitionCtor = new () => Recognition;

/** Recognition errors that mean "this browser's service is not there", not "nothing was said". */
const SERVICE_MISSING = new Set(['network', 'service-not-allowed', 'language-not-supported']);
let recorderOnly = false;

function recognitionCtor(): RecognitionCtor | null {
  const w = window as unknown as { SpeechRecognition?: RecognitionCtor; webkitSpeechRecognition?: RecognitionCtor };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

export function startDictation(h: DictationHandlers): Dictation {
  const Ctor = recorderOnly ? null : recognitionCtor();
  return Ctor ? recognise(Ctor, h) : record(h);
}

function recognise(Ctor: RecognitionCtor, h: DictationHandlers): Dictation {
  const rec = new Ctor();
  rec.lang = navigator.language || 'en-US';
  rec.continuous = true;
  rec.interimResults = false;
  let heard = false;
  let handedOver: Dictation | null = null;
  let failed = false;
  rec.onresult = (e) => {
    for (let i = e.resultIndex; i < e.results.length; i++) {
      const result = e.results[i]!;
      const text = result[0].transcript.trim();
      if (result.isFinal && text) {
        heard = true;
        h.text(text);
      }
    }
  };
  rec.onerror = (e) => {
    if (SERVICE_MISSING.has(e.error) && !heard) {
      recorderOnly = true;
      handedOver = record(h);
      return;
    }
    if (e.error === 'aborted') return;
    failed = true;
    h.error(
      e.error === 'not-allowed'
        ? msg('Microphone access was refused')
        : e.error === 'no-speech'
          ? msg('No speech was heard')
          : msg(str`Dictation stopped (${e.error})`),
    );
  };
  rec.onend = () => {
    if (!handedOver && !failed) h.phase('idle');
  };
  h.phase('listening');
  rec.start();
  return {
    stop: () => (handedOver ? handedOver.stop() : rec.stop()),
    cancel: () => (handedOver ? handedOver.cancel() : rec.abort()),
  };
}

/** A container the server's transcription endpoints read (they go by the file name's extension). */
const RECORDING_TYPES: Array<[string, string]> = [
  ['audio/webm;codecs=opus', 'webm'],
  ['audio/webm', 'webm'],
  ['audio/ogg;codecs=opus', 'ogg'],
  ['audio/mp4', 'm4a'],
];

function record(h: DictationHandlers): Dictation {
  let recorder: MediaRecorder | null = null;
  let stream: MediaStream | null = null;
  let stopped = false;
  let dropped = false;
  const release = () => {
    for (const track of stream?.getTracks() ?? []) track.stop();
    stream = null;
  };
  const fail = (message: string) => {
    release();
    if (!stopped) h.error(message);
  };

  h.phase('opening');
  void (async () => {
    try {
      const capability = await transcribeCapability();
      if (!capability.available) return fail(capability.reason ?? msg('Speech-to-text is not configured on this server'));
    } catch (err) {
      return fail((err as Error).message);
    }
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') return fail(msg('This browser cannot record audio'));
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (err) {
      const name = (err as DOMException).name;
      return fail(
        name === 'NotAllowedError'
          ? msg('Microphone access was refused')
          : name === 'NotFoundError'
            ? msg('No microphone was found')
            : msg('The microphone could not be opened'),
      );
    }
    if (stopped) return release();
    const [type, ext] = RECORDING_TYPES.find(([t]) => MediaRecorder.isTypeSupported(t)) ?? ['', 'webm'];
    recorder = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => e.data.size && chunks.push(e.data);
    recorder.onstop = () => {
      release();
      if (dropped) return h.phase('idle');
      const audio = new Blob(chunks, { type: recorder?.mimeType || type || 'audio/webm' });
      if (!audio.size) return h.error(msg('Nothing was recorded'));
      h.phase('transcribing');
      transcribe(audio, `dictation-${Date.now()}.${ext}`).then(
        (text) => {
          if (text.trim()) h.text(text.trim());
          else h.error(msg('No speech was heard'));
          h.phase('idle');
        },
        (err: Error) => h.error(err.message),
      );
    };
    recorder.start();
    h.phase('recording');
  })();

  const end = (drop: boolean) => {
    if (stopped) return;
    stopped = true;
    dropped = drop;
    if (recorder && recorder.state !== 'inactive') recorder.stop();
    else if (!recorder) {
      // Still asking for the microphone (or the capability): nothing recorded yet.
      release();
      h.phase('idle');
    }
  };
  return { stop: () => end(false), cancel: () => end(true) };
}
