/**
 * Masks credentials in text shown to a browser or written to a log: API keys, bearer/basic
 * credentials, JWTs, PEM private keys, passwords in URLs, and `secret_name = value`
 * assignments. Pure and runtime-free (shared by the server and, later, the browser).
 *
 * The secret part becomes `***`; what stays is a vendor prefix (`sk-proj-***`, `ghp_***`,
 * `AKIA***`), a header or key name (`Authorization: Bearer ***`, `"api_key": "***"`), or a
 * URL's user and host (`postgres://app:***@db/main`) — never any characters of the secret.
 * Masking is idempotent: redacting redacted text changes nothing.
 *
 * Speed: one case-insensitive prefilter scan decides whether any rule could apply; text
 * without a marker (most titles, most prose) comes back as the same string at once.
 */

export const MASK = '***';

/**
 * Every rule below needs one of these substrings to match, so a string without any of them is
 * returned untouched. (Case-insensitive, so it over-approximates; the rules decide.)
 */
const MARKERS =
  /sk-|[sr]k_(?:live|test)_|gh[pousr]_|github_pat_|akia|asia|aiza|xox[abprs]-|hf_|eyj|-----begin|:\/\/|\d{8}:|bearer|basic|authori[sz]ation|key|secret|token|passw/i;

/** True when `text` contains a marker any rule needs (a cheap test; false means "nothing to mask"). */
export function mayContainSecret(text: string): boolean {
  return MARKERS.test(text);
}

// Token characters a rule's boundary must not touch: `task-list` is not `sk-list`. A letter that
// ends an escape (`\n` in JSON text: `…\nsk-…`) is a boundary, not part of the token.
const notAfter = (chars: string) => String.raw`(?<!(?<!\\)[${chars}])`;
const B = notAfter('A-Za-z0-9_-');
const E = String.raw`(?![A-Za-z0-9_-])`;

/** PEM private key blocks (RSA, EC, OPENSSH, PKCS#8, encrypted, PGP). A cut-off block is masked to the end. */
const PEM = /-----BEGIN ([A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?)-----(?:[\s\S]*?(-----END \1-----)|[\s\S]*$)/g;

/** Vendor API keys: [pattern, what stays]. The pattern's first group, when it has one, is kept. */
const VENDOR_KEYS: Array<[RegExp, (m: string, ...groups: string[]) => string]> = [
  // Anthropic, OpenRouter, OpenAI project/service keys, then any other `sk-` key (needs a digit).
  [new RegExp(`${B}(sk-ant-(?:[a-z]{3}\\d\\d-)?)[A-Za-z0-9_-]{20,}`, 'g'), (_m, p) => p + MASK],
  [new RegExp(`${B}(sk-or-(?:v\\d-)?)[A-Za-z0-9_-]{20,}`, 'g'), (_m, p) => p + MASK],
  [new RegExp(`${B}(sk-(?:proj|svcacct|admin|None)-)[A-Za-z0-9_-]{20,}`, 'g'), (_m, p) => p + MASK],
  [new RegExp(`${B}sk-([A-Za-z0-9_-]{20,})${E}`, 'g'), (m, body) => (/\d/.test(body) ? `sk-${MASK}` : m)],
  // Stripe secret and restricted keys.
  [new RegExp(`${B}([sr]k_(?:live|test)_)[A-Za-z0-9]{10,}`, 'g'), (_m, p) => p + MASK],
  // GitHub tokens and fine-grained PATs.
  [new RegExp(`${B}(gh[pousr]_)[A-Za-z0-9]{30,}`, 'g'), (_m, p) => p + MASK],
  [new RegExp(`${B}(github_pat_)[A-Za-z0-9_]{22,}`, 'g'), (_m, p) => p + MASK],
  // AWS access key ids (long-lived and temporary).
  [new RegExp(`${notAfter('A-Za-z0-9')}(AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])`, 'g'), (_m, p) => p + MASK],
  // Google API keys.
  [new RegExp(`${B}(AIza)[0-9A-Za-z_-]{30,}`, 'g'), (_m, p) => p + MASK],
  // Slack tokens.
  [new RegExp(`${B}(xox[abprs]-)[A-Za-z0-9-]{10,}`, 'g'), (_m, p) => p + MASK],
  // Hugging Face tokens.
  [new RegExp(`${B}(hf_)[A-Za-z0-9]{30,}${E}`, 'g'), (_m, p) => p + MASK],
  // Telegram bot tokens: the bot's numeric id stays, the secret goes.
  [/(?<![\d:])(\d{8,10}):[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g, (_m, id) => `${id}:${MASK}`],
];

/** JWTs: header and payload are base64url JSON objects (`eyJ…`). */
const JWT = new RegExp(`${B}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*`, 'g');

/** `scheme://user:password@host`: only the password goes. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]{1,30}:\/\/)([^\s:@/?#"'<>\\]*):([^\s@/?#"'<>\\]+)@/gi;

const TOKEN_CHARS = String.raw`[A-Za-z0-9._~+/=-]`;
/** A credential ends where token characters (or an earlier mask) end: no half-token matches. */
const TOKEN_END = String.raw`(?![A-Za-z0-9._~+/=*-])`;
/** Authorization schemes whose next word is always the credential. */
const AUTH_SCHEMES = /^(?:bearer|basic|token|bot|digest|apikey|api-key|key|sso-key|otp|negotiate|ntlm|aws4-hmac-sha256|hmac|mac)$/i;
/** `Authorization: <scheme> <credentials>` or `Authorization: <credentials>` (header, JSON, curl -H). */
const AUTH_HEADER = new RegExp(
  String.raw`(\bauthori[sz]ation\\*["']?[ \t]*[:=][ \t]*\\*["']?)(?:([A-Za-z][A-Za-z0-9_-]{1,20})([ \t]+)(${TOKEN_CHARS}+)${TOKEN_END}|(?![A-Za-z][A-Za-z0-9_-]{1,20}[ \t])(${TOKEN_CHARS}{8,})${TOKEN_END})`,
  'gi',
);
/** A bare `Bearer <token>` anywhere. */
const BEARER = new RegExp(String.raw`${notAfter('A-Za-z0-9_')}(bearer[ \t]+)(${TOKEN_CHARS}{12,})${TOKEN_END}`, 'gi');
/** A bare `Basic <base64>` anywhere. */
const BASIC = new RegExp(String.raw`${notAfter('A-Za-z0-9_')}(basic[ \t]+)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])`, 'gi');

/** Key names that say their value is a secret: the secret word ends the name (`max_tokens` does not). */
const SECRET_KEY_NAME = String.raw`[A-Za-z0-9_.-]*?(?:api[_-]?key|apikey|secret|token|passwd|password|access[_-]?key|private[_-]?key|secret[_-]?key|auth[_-]?key)`;
/**
 * `key=value`, `key: value`, `"key": "value"`, `KEY=value`, `--password=value`, `?token=…&`,
 * also inside JSON-in-a-string (`\"api_key\": \"…\"`). Groups: 1 opening quote, 2 key,
 * 3 closing quote, 4 space before the separator, 5 separator and space after it, 6 the value's
 * opening quote (backslashes included), 7 the quoted value, 8 its closing quote, 9 an unquoted value.
 */
const ASSIGNMENT = new RegExp(
  String.raw`${notAfter('A-Za-z0-9_')}(?<!\\)((?:\\*["'])?)(${SECRET_KEY_NAME})(?![A-Za-z0-9])(\\*["']?)([ \t]*)((?::|=>|=(?!=))[ \t]*)` +
    String.raw`(?:(\\*["'])((?:(?!\6)(?:\\[^\n]|[^\n\\]))*?)(\6)|([^\s"'<>;,&()[\]{}\\|]+))`,
  'gi',
);

/** Values that are references or placeholders, not secrets: `$TOKEN`, `${X}`, `{{ x }}`, `<your key>`, `null`, `********`. */
const NOT_A_VALUE = /^(?:\$[A-Z_{(]|%\(|\{\{|<)|^(?:true|false|null|nil|none|undefined|required|optional|string|number|boolean|\*+|\.\.\.|…)$/i;
/** A word or a dotted identifier without digits (`hunter`, `os.environ`, `token`): code and prose. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z_]*(?:\.[A-Za-z_][A-Za-z_]*)*$/;
const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;

function maskAssignment(
  m: string,
  q1: string,
  key: string,
  q2: string,
  sp: string,
  sep: string,
  vq1: string | undefined,
  quoted: string | undefined,
  vq2: string | undefined,
  bare: string | undefined,
  offset: number,
  whole: string,
): string {
  const value = quoted ?? bare ?? '';
  if (!value.trim() || value.includes(MASK) || NOT_A_VALUE.test(value.trim())) return m;
  if (quoted === undefined) {
    // A call, an index or a template (`getToken()`, `${{ secrets.X }}`) is code, not a value.
    if ('({['.includes(whole[offset + m.length] || ' ')) return m;
    // Unquoted: `KEY=value` in an env file or a shell line is always a value; elsewhere a bare
    // word or identifier (`token: string`, `password=password`, `api_key = os.environ`) is code
    // or prose, and so is a very short value (`token: 5`).
    const envStyle = ENV_NAME.test(key) && !q1 && !sp && sep === '=';
    if (!envStyle && (IDENTIFIER.test(value) || value.length < 4)) return m;
    return `${q1}${key}${q2}${sp}${sep}${MASK}`;
  }
  return `${q1}${key}${q2}${sp}${sep}${vq1}${MASK}${vq2}`;
}

function maskBasic(m: string, prefix: string, b64: string): string {
  // Only when it decodes to `user:password` text; `Basic authentication` is prose.
  try {
    const decoded = atob(b64);
    return decoded.includes(':') && /^[\x20-\x7e]+$/.test(decoded) ? prefix + MASK : m;
  } catch {
    return m;
  }
}

/** Words (`tokens`, `access-token`): what follows "Bearer" in prose, not a credential. */
const WORDISH = /^[A-Za-z]+(?:[_-][A-Za-z]+)*$/;

function maskAuthHeader(m: string, head: string, scheme?: string, space?: string, cred?: string, bare?: string): string {
  if (scheme !== undefined && cred !== undefined) {
    if (cred.includes(MASK) || (!AUTH_SCHEMES.test(scheme) && WORDISH.test(cred))) return m;
    return `${head}${scheme}${space}${MASK}`;
  }
  // No scheme: only something that looks like a credential (`Authorization: required…` is prose).
  if (bare !== undefined && !WORDISH.test(bare)) return `${head}${MASK}`;
  return m;
}

/**
 * `text` with every credential it recognises masked. Returns the same string (`===`) when
 * nothing was found, so callers can tell cheaply whether anything changed.
 */
export function redactSecrets(text: string): string {
  if (text.length < 8 || !MARKERS.test(text)) return text;
  let out = text;
  if (out.includes('-----BEGIN')) {
    out = out.replace(PEM, (m: string, label: string, end?: string) => {
      // The block's own line break: a real one, or `\n` when the key sits in JSON text.
      const nl = /^-----BEGIN [^-]*-----(\r?\n|\\r\\n|\\n|\s)/.exec(m)?.[1] ?? '\n';
      return `-----BEGIN ${label}-----${nl}${MASK}${end ? `${nl}${end}` : ''}`;
    });
  }
  for (const [pattern, mask] of VENDOR_KEYS) out = out.replace(pattern, mask as (m: string, ...g: string[]) => string);
  if (out.includes('eyJ')) out = out.replace(JWT, `eyJ${MASK}`);
  if (out.includes('://')) {
    out = out.replace(URL_CREDENTIALS, (m, scheme: string, user: string, password: string) => (password === MASK ? m : `${scheme}${user}:${MASK}@`));
  }
  out = out.replace(AUTH_HEADER, maskAuthHeader as (m: string, ...g: string[]) => string);
  out = out.replace(BEARER, (m, head: string, token: string) => (WORDISH.test(token) ? m : head + MASK));
  out = out.replace(BASIC, maskBasic);
  out = out.replace(ASSIGNMENT, maskAssignment as (m: string, ...g: unknown[]) => string);
  return out === text ? text : out;
}

/** Letters, digits and the punctuation keys, tokens, base64 and URLs are made of. */
function isTokenChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 /* _ */ ||
    code === 45 /* - */ ||
    code === 43 /* + */ ||
    code === 47 /* / */ ||
    code === 61 /* = */ ||
    code === 46 /* . */ ||
    code === 126 /* ~ */ ||
    code === 58 /* : */ ||
    code === 37 /* % */
  );
}

/** How far a cut backs off to avoid splitting a run; a longer run is long enough for the rules to recognise what it holds. */
const MAX_BACKOFF = 64;

/**
 * The first `max` characters of `text` (for a preview or a title), cut before a word or
 * token that the cut would split rather than through it: half an API key is too short for
 * the rules to recognise, so a cut must not keep one. It backs off at most 64 characters.
 */
export function cutBeforeToken(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const floor = Math.max(0, max - MAX_BACKOFF);
  while (end > floor && isTokenChar(text.charCodeAt(end - 1)) && isTokenChar(text.charCodeAt(end))) end--;
  if (end === floor) end = max; // one long run: cut it; 64+ characters of a key are still recognised
  return text.slice(0, end).trimEnd();
}

/** Objects whose fields `redactDeep` walks: plain data (JSON-like), nothing with a class. */
function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * `value` with `redactSecrets` applied to every string inside it (arrays and plain objects are
 * walked; keys, numbers and class instances are left alone). Copy-on-write: an object or
 * array is copied only when something inside it changed, so an unchanged value comes back as
 * the same reference (frozen shared rows stay shared).
 */
export function redactDeep<T>(value: T): T {
  return walk(value, 0, null) as T;
}

/** Nesting below which no cycle check is needed (JSON-like data is never this deep). */
const SHALLOW = 32;

function walk(value: unknown, depth: number, path: Set<object> | null): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (value === null || typeof value !== 'object') return value;
  // Cycles can only matter deep down; track the path only there, so shallow data walks cheaply.
  if (depth >= SHALLOW) {
    path ??= new Set();
    if (path.has(value)) return value;
  }
  if (Array.isArray(value)) {
    path?.add(value);
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const next = walk(item, depth + 1, path);
      if (next !== item) (copy ??= value.slice())[i] = next;
    }
    path?.delete(value);
    return copy ?? value;
  }
  if (!isPlainObject(value)) return value;
  path?.add(value);
  let copy: Record<string, unknown> | null = null;
  for (const key in value) {
    const item = value[key];
    if (typeof item !== 'string' && (item === null || typeof item !== 'object')) continue;
    const next = walk(item, depth + 1, path);
    if (next !== item) {
      copy ??= { ...value };
      // A `__proto__` key (from JSON.parse) is an own property; plain assignment would set the prototype.
      Object.defineProperty(copy, key, { value: next, writable: true, enumerable: true, configurable: true });
    }
  }
  path?.delete(value);
  return copy ?? value;
}
