import { parse as parseYaml } from 'yaml';
import { parseDotenv, substitute } from '../agent/config.js';
import { addressClass } from '../agent/tools/web/url-policy.js';

/**
 * Hermes' speech settings (config.yaml `stt:` and `tts:`, keys from `.env`), reduced to the
 * OpenAI-compatible endpoints this server can call itself. Pure: the caller gives the files'
 * text and the process environment. Names and defaults are Hermes Agent's
 * (tools/transcription_tools.py, tools/tts_tool.py).
 */

/** An OpenAI-compatible audio endpoint with what to send it. */
export interface AudioEndpoint {
  provider: 'openai' | 'groq';
  /** Without a trailing slash; `/audio/transcriptions` or `/audio/speech` is appended. */
  baseUrl: string;
  apiKey: string;
  model: string;
}

export type SttChoice =
  | ({ available: true; language: string | null } & AudioEndpoint)
  /** `provider` is what the configuration names (or `none`); `reason` says why it cannot run here. */
  | { available: false; provider: string; reason: string };

export type TtsChoice = ({ available: true; voice: string } & AudioEndpoint) | { available: false; reason: string };

const OPENAI_BASE = 'https://api.openai.com/v1';
const GROQ_BASE = 'https://api.groq.com/openai/v1';

const NOT_CONFIGURED =
  'Speech-to-text is not configured on this server. Set stt.provider to openai or groq in config.yaml ' +
  'with VOICE_TOOLS_OPENAI_KEY, OPENAI_API_KEY or GROQ_API_KEY in .env (or stt.openai.base_url for a local OpenAI-compatible server).';

type Tree = Record<string, unknown>;
const obj = (v: unknown): Tree => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Tree) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** The files read into one tree and one environment (`.env` over the process's, as Hermes loads it). */
export function readVoiceFiles(input: { configYaml: string | null; dotenv: string | null; env: Record<string, string | undefined> }): {
  tree: Tree;
  env: Record<string, string>;
} {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(input.env)) if (typeof v === 'string') env[k] = v;
  Object.assign(env, input.dotenv ? parseDotenv(input.dotenv) : {});
  let tree: Tree = {};
  try {
    tree = obj(substitute(parseYaml(input.configYaml ?? '') ?? {}, env));
  } catch {
    // A config.yaml Hermes cannot read either: no speech settings, the routes say "not configured".
  }
  return { tree, env };
}

/** A base URL on this machine or a private network: Hermes sends a placeholder key to those. */
function isLocalUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || addressClass(host) === 'private';
  } catch {
    return false;
  }
}

/** Hermes' key order for OpenAI audio: the section's own `api_key`, then VOICE_TOOLS_OPENAI_KEY, then OPENAI_API_KEY. */
function openAIKey(section: Tree, env: Record<string, string>, baseUrl: string): string {
  return str(section.api_key) || str(env.VOICE_TOOLS_OPENAI_KEY) || str(env.OPENAI_API_KEY) || (isLocalUrl(baseUrl) ? 'not-needed' : '');
}

function openAIStt(stt: Tree, env: Record<string, string>): SttChoice | null {
  const section = obj(stt.openai);
  const baseUrl = trimSlash(str(section.base_url) || str(env.STT_OPENAI_BASE_URL) || OPENAI_BASE);
  const apiKey = openAIKey(section, env, baseUrl);
  if (!apiKey) return null;
  const model = str(section.model) || str(env.STT_OPENAI_MODEL) || 'whisper-1';
  return { available: true, provider: 'openai', baseUrl, apiKey, model, language: str(section.language) || str(stt.language) || null };
}

function groqStt(stt: Tree, env: Record<string, string>): SttChoice | null {
  const section = obj(stt.groq);
  const apiKey = str(section.api_key) || str(env.GROQ_API_KEY);
  if (!apiKey) return null;
  const baseUrl = trimSlash(str(section.base_url) || str(env.GROQ_BASE_URL) || GROQ_BASE);
  const model = str(section.model) || str(env.STT_GROQ_MODEL) || 'whisper-large-v3-turbo';
  return { available: true, provider: 'groq', baseUrl, apiKey, model, language: str(section.language) || str(stt.language) || null };
}

/**
 * Which transcription endpoint `POST /api/transcribe` uses. `stt.enabled: false` turns it off;
 * an explicit `stt.provider` is used or refused (never swapped for another); without one, groq
 * then openai when their keys are there — Hermes' own order minus the local engines, which run
 * inside the Python agent and not here.
 */
export function sttChoice(tree: Tree, env: Record<string, string>): SttChoice {
  const stt = obj(tree.stt);
  const enabled = stt.enabled;
  if (enabled === false || ['false', 'no', 'off', '0'].includes(str(enabled).toLowerCase())) {
    return { available: false, provider: 'none', reason: 'Speech-to-text is turned off (stt.enabled: false in config.yaml)' };
  }
  const configured = str(stt.provider).toLowerCase();
  if (configured === 'openai') return openAIStt(stt, env) ?? { available: false, provider: 'openai', reason: NOT_CONFIGURED };
  if (configured === 'groq') return groqStt(stt, env) ?? { available: false, provider: 'groq', reason: 'GROQ_API_KEY is not set (stt.provider: groq)' };
  if (configured) {
    return {
      available: false,
      provider: configured,
      reason: `Speech-to-text provider "${configured}" runs inside Hermes Agent and is not offered by this server; set stt.provider to openai or groq`,
    };
  }
  return groqStt(stt, env) ?? openAIStt(stt, env) ?? { available: false, provider: 'none', reason: NOT_CONFIGURED };
}

/** The OpenAI speech endpoint `POST /api/tts` calls for engine `openai` (config.yaml `tts.openai`). */
export function ttsChoice(tree: Tree, env: Record<string, string>): TtsChoice {
  const section = obj(obj(tree.tts).openai);
  const baseUrl = trimSlash(str(section.base_url) || OPENAI_BASE);
  const apiKey = openAIKey(section, env, baseUrl);
  // The incumbent's text for a missing key (its clients show it).
  if (!apiKey) return { available: false, reason: 'OpenAI API key not configured' };
  return { available: true, provider: 'openai', baseUrl, apiKey, model: str(section.model) || 'gpt-4o-mini-tts', voice: str(section.voice) || 'alloy' };
}
