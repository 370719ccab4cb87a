import type { SettingsStore } from '../ports/settings-store.js';
import { redactDeep, redactSecrets } from '../shared/redact.js';
import { SETTINGS_DEFAULTS } from '../shared/settings.js';

/**
 * What the API shows of stored data, under the `api_redact_enabled` setting: with it on (the
 * default) credentials in sessions, titles, search previews, exports and chat events are
 * masked on the way out. Storage is never touched; the agent keeps seeing the originals.
 */
export interface Presenter {
  readonly redacting: boolean;
  /** `value` as a browser may see it: every string inside redacted (copy-on-write), or `value` itself. */
  <T>(value: T): T;
}

const passThrough: Presenter = Object.assign(<T>(value: T) => value, { redacting: false });
const redacting: Presenter = Object.assign(<T>(value: T) => redactDeep(value), { redacting: true });

/** The presenter that redacts, or the one that passes values through. */
export function presenterFor(enabled: boolean): Presenter {
  return enabled ? redacting : passThrough;
}

/**
 * Reads `api_redact_enabled` (one small settings read). Only an explicit off (`false`, `0`,
 * `"false"`, `"0"`) turns redaction off; a missing key or a failing settings store keeps it on.
 */
export async function redactionEnabled(settings: SettingsStore): Promise<boolean> {
  let value: unknown;
  try {
    value = (await settings.read()).api_redact_enabled;
  } catch {
    return true;
  }
  if (value === undefined || value === null) return SETTINGS_DEFAULTS.api_redact_enabled;
  return !(value === false || value === 0 || value === 'false' || value === '0');
}

/** The presenter for the current settings: call once per request (or per chat turn). */
export async function presenter(settings: SettingsStore): Promise<Presenter> {
  return presenterFor(await redactionEnabled(settings));
}

/**
 * Session rows with their titles redacted: the only free text a row carries. Rows are shared
 * and frozen, so a row is copied only when its title changes, and the list itself only when
 * some row did.
 */
export function redactRowTitles<R extends { readonly title: string }>(rows: readonly R[]): readonly R[] {
  let out: R[] | null = null;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const title = redactSecrets(row.title);
    if (title !== row.title) (out ??= rows.slice())[i] = { ...row, title };
  }
  return out ?? rows;
}
