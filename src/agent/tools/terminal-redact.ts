/**
 * Masks credentials in command output before the model reads it, by Hermes' terminal policy
 * (its `redact_terminal_output`): vendor-prefixed keys, Authorization and API-key headers,
 * Telegram bot tokens, private keys, database URL passwords, tokens in URL userinfo, JWTs,
 * Zhipu keys, form bodies and phone numbers always; `KEY=value`, JSON and YAML assignments
 * only when the command dumps the environment (`env`, `printenv`, `set`, `export`, `declare`)
 * or reads a secret-bearing file (`.env*`, a shell rc, Hermes' config.yaml), so source code
 * such as `MAX_TOKENS=100` survives. A masked token keeps its first 6 and last 4 characters
 * when it has at least 18 (`sk-pro...WXYZ`), else becomes `***`.
 *
 * This is model-facing and separate from `src/shared/redact.ts`, which masks what browsers and
 * logs see (and never keeps characters of a secret).
 */

const MASK = '***';

/** Hermes' log-token mask: 18-character floor, 6 characters of head and 4 of tail. */
export function maskToken(token: string): string {
  const t = token.replace(/[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064]/g, '');
  if (!t) return MASK;
  return t.length < 18 ? MASK : `${t.slice(0, 6)}...${t.slice(-4)}`;
}

/** Vendor key shapes; each starts with a literal prefix (which is also its prefilter). */
const PREFIXES: Array<[string, string]> = [
  ['sk-', String.raw`sk-[A-Za-z0-9_-](?:\.?[A-Za-z0-9_-]){9,}`],
  ...['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'].map((p): [string, string] => [p, `${p}[A-Za-z0-9]{10,}`]),
  ['github_pat_', 'github_pat_[A-Za-z0-9_]{10,}'],
  ['xapp-', String.raw`xapp-\d+-[A-Za-z0-9-]{10,}`],
  ['xox', 'xox[baprs]-[A-Za-z0-9-]{10,}'],
  ['AIza', 'AIza[A-Za-z0-9_-]{30,}'],
  ['gAAAA', 'gAAAA[A-Za-z0-9_=-]{20,}'],
  ['AKIA', 'AKIA[A-Z0-9]{16}'],
  ['SG.', String.raw`SG\.[A-Za-z0-9_-]{10,}`],
  ['am_', 'am_(?:org_)?[A-Za-z0-9]{20,}'],
  ['sk_', 'sk_[A-Za-z0-9_]{10,}'], // also Stripe sk_live_/sk_test_
  ...[
    'pplx-',
    'fc-',
    'rk_live_',
    'hf_',
    'r8_',
    'npm_',
    'dop_v1_',
    'doo_v1_',
    'tvly-',
    'exa_',
    'gsk_',
    'syt_',
    'retaindb_',
    'hsk-',
    'mem0_',
    'brv_',
    'ntn_',
  ].map((p): [string, string] => [p, `${p.replace('.', String.raw`\.`)}[A-Za-z0-9]{10,}`]),
  ...['fal_', 'bb_live_', 'pypi-'].map((p): [string, string] => [p, `${p}[A-Za-z0-9_-]{10,}`]),
  ...['xai-', 'fw-', 'fw_', 'fpk_'].map((p): [string, string] => [p, `${p}[A-Za-z0-9]{30,}`]),
  ...['glpat-', 'gloas-', 'gldt-', 'glcbt-', 'glptt-', 'glft-', 'glimt-', 'glagent-', 'glsoat-', 'glffct-', 'glwt-', 'GR1348941'].map((p): [string, string] => [
    p,
    `${p}[A-Za-z0-9_-]{10,}`,
  ]),
  ...['glrt-', 'glrtr-'].map((p): [string, string] => [p, `${p}[A-Za-z0-9_.-]{10,}`]),
  ['pk-lf-', 'pk-lf-[A-Za-z0-9-]{8,}'],
];
// Not inside a longer identifier, except right after a JSON escape (`\n`, `\u00e9`).
const PREFIX_RE = new RegExp(
  String.raw`(?:(?<![A-Za-z0-9_-])|(?<=\\[A-Za-z])|(?<=\\u[0-9a-fA-F]{4})|(?<=\\x[0-9a-fA-F]{2}))(${PREFIXES.map((p) => p[1]).join('|')})(?![A-Za-z0-9_-])`,
  'g',
);
const PREFIX_LITERALS = PREFIXES.map((p) => p[0]);

const ZHIPU_RE = /(?<![A-Za-z0-9_.-])([0-9a-f]{32}\.[A-Za-z0-9]{16,})(?![A-Za-z0-9_.-])/g;
const AUTH_HEADER_RE = /((?:Proxy-)?Authorization:\s*)([A-Za-z][\w.+-]*\s+)?([^\s"']+)/gi;
const SECRET_HEADER_RE = /((?:x-api-key|x-goog-api-key|api-key|apikey|x-api-token|x-auth-token|x-access-token)\s*:\s*)(\S+)/gi;
const TELEGRAM_RE = /(?<!\d)(bot)?(\d{8,}):([-A-Za-z0-9_]{30,})/g;
const PRIVATE_KEY_RE = /-----BEGIN[A-Z ]*PRIVATE KEY-----[\s\S]*?-----END[A-Z ]*PRIVATE KEY-----/g;
const DB_URL_RE = /((?:postgres(?:ql)?|mysql|mongodb(?:\+srv)?|redis|amqp):\/\/[^:\s]+:)([^@\s]+)(@)/gi;
const URL_TOKEN_RE = /((?:https?|wss?|git|ssh|ftp|ftps|sftp):\/\/)([^\s:@/]{8,})(@\S+)/gi;
const JWT_RE = /eyJ[A-Za-z0-9_-]{10,}(?:\.[A-Za-z0-9_=-]{4,}){0,2}/g;
const PHONE_RE = /(\+[1-9]\d{6,14})(?![A-Za-z0-9])/g;
const FORM_BODY_RE = /^[A-Za-z_][A-Za-z0-9_.-]*=[^&\s]*(?:&[A-Za-z_][A-Za-z0-9_.-]*=[^&\s]*)+$/;
const SENSITIVE_PARAMS = new Set(
  'access_token refresh_token id_token token api_key apikey client_secret password auth jwt session secret key code signature x-amz-signature x-goog-signature sig'.split(
    ' ',
  ),
);

// ---- assignments (env dumps and secret files only) ----

const ENV_UPPER_RE =
  /(?<![A-Z0-9_])([A-Z0-9_]{0,50}(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PW|CREDENTIAL|AUTH)[A-Z0-9_]{0,50})\s*=\s*(['"]?)(\S+)\2/g;
const ENV_LOWER_RE = /(?<![a-z0-9_])([a-z0-9_]+(?:_|^)(?:key|pass|pw|token|secret|password|passwd|credential|auth)(?=[^a-z0-9_]|$))\s*=\s*(['"]?)(\S+)\2/gi;
const JSON_FIELD_RE =
  /("(?:api_?[Kk]ey|token|secret|password|access_token|refresh_token|auth_token|bearer|secret_value|raw_secret|secret_input|key_material)")\s*:\s*"([^"]+)"/gi;
const GUTTER = String.raw`(?:[0-9]+(?:[|:\-]|\t)[ \t]*)?`;
const YAML_RE = new RegExp(
  String.raw`(^[ \t]*${GUTTER}[A-Za-z0-9_.\-]*(?:api[ _.\-]?key|token|secret|passwd|password|credential)[A-Za-z0-9_.\-]*)(:[ \t]*)(?!['"])([^\s&]+)`,
  'gim',
);
const KEYWORD_RE = /(?:api|auth|access|refresh|session|secret)[ _.\\-]?(?:key|token)|token|secret|passwd|password|pass|pw|credential|auth|key/gi;
const STRONG_KEYWORD_RE =
  /(?:api|auth|access|refresh|session|id|bearer)[ _.\\-]?(?:key|token)|key[ _.\\-]?material|secret|passwd|password|pass|pw|credential|auth|bearer/gi;
const PASSWORD_KEY_RE = /passwd|password|pass|pw/gi;
const ENV_LOOKUP_RE = /^(?:os\.(?:getenv|environ)|process\.env|\$ENV\{)/;
const VAR = String.raw`\$(?:\{[A-Za-z_]\w*[^}]*\}|[A-Za-z_]\w*)`;
const PATH_OR_VAR_RE = new RegExp(String.raw`^(?:${VAR}|\$\(|~|/)(?:[\w./:-]|${VAR})*$`);
const OPAQUE_SEGMENT_RE = /^(?=[^.]*[a-z])(?=[^.]*[A-Z])(?=[^.]*[0-9])[^.]{16,}$/;

const LETTER = /\p{L}/u;
const isLetter = (c: string | undefined) => !!c && LETTER.test(c);
const isUpper = (c: string | undefined) => !!c && c !== c.toLowerCase();
const isLower = (c: string | undefined) => !!c && c !== c.toUpperCase();

/** A keyword counts at a word edge, next to a non-letter, or at a camelCase turn (`clientSecret`). */
function wordStart(s: string, i: number): boolean {
  if (i === 0) return true;
  const prev = s[i - 1];
  const cur = s[i];
  if (!isLetter(prev) || (isUpper(cur) && isLower(prev))) return true;
  return isUpper(cur) && isUpper(prev) && isLower(s[i + 1]);
}
function wordEnd(s: string, j: number, plural = true): boolean {
  if (j >= s.length) return true;
  const cur = s[j];
  if (!isLetter(cur) || (isUpper(cur) && isLower(s[j - 1]))) return true;
  return plural && (cur === 's' || cur === 'S') && wordEnd(s, j + 1, false);
}
function hasKeyword(key: string, re: RegExp): boolean {
  re.lastIndex = 0;
  for (let m = re.exec(key); m; m = re.exec(key)) {
    if (wordStart(key, m.index) && wordEnd(key, m.index + m[0].length)) return true;
  }
  return false;
}

const HAS_LOWER = /[a-z]/;
const HAS_UPPER = /[A-Z]/;
const HAS_DIGIT = /[0-9]/;
const HEX = /^[A-Fa-f0-9]+$/;
const TOKENISH = /^[A-Za-z0-9_./+=-]+$/;

function looksOpaque(value: string): boolean {
  if (value === MASK) return true;
  if (value.length >= 16 && HEX.test(value)) return true;
  if (value.length >= 20 && TOKENISH.test(value)) return true;
  if (value.length < 12) return false;
  return Number(HAS_LOWER.test(value)) + Number(HAS_UPPER.test(value)) + Number(HAS_DIGIT.test(value)) >= 2;
}

function shouldMask(key: string, value: string, checkKeyword: boolean): boolean {
  if (ENV_LOOKUP_RE.test(value) || value === MASK || value.startsWith('«redacted')) return false;
  if (checkKeyword && !hasKeyword(key, KEYWORD_RE)) return false;
  // `SSH_AUTH_SOCK=$HOME/.ssh/agent.sock` is configuration; only password keys mask a path or variable.
  if (PATH_OR_VAR_RE.test(value) && !hasKeyword(key, PASSWORD_KEY_RE)) {
    if (value[0] === '$' || !value.split('/').some((seg) => OPAQUE_SEGMENT_RE.test(seg))) return false;
  }
  return hasKeyword(key, STRONG_KEYWORD_RE) || looksOpaque(value);
}

function maskAssignments(text: string): string {
  if (text.includes('=')) {
    const env = (m: string, key: string, q: string, value: string) => (shouldMask(key, value, true) ? `${key}=${q}${maskToken(value)}${q}` : m);
    text = text.replace(ENV_UPPER_RE, env);
    if (!text.includes('://')) text = text.replace(ENV_LOWER_RE, env);
  }
  if (text.includes(':') && text.includes('"')) {
    text = text.replace(JSON_FIELD_RE, (m, key: string, value: string) => (shouldMask(key, value, false) ? `${key}: "${maskToken(value)}"` : m));
  }
  if (text.includes(':') && !text.includes('://')) {
    text = text.replace(YAML_RE, (m, key: string, sep: string, value: string) => (shouldMask(key, value, true) ? `${key}${sep}${maskToken(value)}` : m));
  }
  return text;
}

// ---- which commands dump secrets ----

const ENV_DUMP = new Set(['env', 'printenv', 'set', 'export', 'declare']);
const FILE_READERS = new Set(['cat', 'head', 'tail', 'type', 'bat', 'less', 'more', 'nl', 'zcat', 'tac', 'view', 'batcat', 'grep', 'awk', 'sed']);
const PATTERN_FIRST = new Set(['grep', 'awk', 'sed']);
const ENV_FILES = new Set(['.env', '.env.local', '.env.development', '.env.production', '.env.test', '.env.staging', '.envrc']);
const SHELL_RCS = new Set(['.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshrc', '.zprofile', '.zlogin', '.zshenv']);

/** Pipeline and list segments, split on `|`, `;` and `&` outside quotes. */
function segments(command: string): string[] {
  const out: string[] = [];
  let buf = '';
  let quote: string | null = null;
  for (const ch of command) {
    if (quote) {
      buf += ch;
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      buf += ch;
    } else if ('|;&'.includes(ch)) {
      if (buf.trim()) out.push(buf.trim());
      buf = '';
    } else buf += ch;
  }
  if (buf.trim()) out.push(buf.trim());
  return out;
}

const unquote = (token: string) => token.replace(/^(['"])(.*)\1$/, '$2');

function isSecretFile(arg: string, hermesHome: string | undefined): boolean {
  let path = unquote(arg).replace(/\\/g, '/');
  let underHome = false;
  for (const prefix of ['$HERMES_HOME/', '${HERMES_HOME}/']) {
    if (path.startsWith(prefix)) {
      path = path.slice(prefix.length);
      underHome = true;
    }
  }
  for (const prefix of ['$HOME/', '${HOME}/']) if (path.startsWith(prefix)) path = path.slice(prefix.length);
  if (path.includes('$')) return false;
  const parts = path
    .split('/')
    .filter(Boolean)
    .map((p) => p.toLowerCase());
  const name = parts.at(-1);
  if (!name) return false;
  if (ENV_FILES.has(name) || SHELL_RCS.has(name)) return true;
  if (name !== 'config.yaml' && !name.startsWith('config.yaml.good.') && !name.startsWith('config.yaml.corrupt.')) return false;
  const home = hermesHome?.replace(/\/+$/, '');
  return underHome || parts.slice(0, -1).includes('.hermes') || (!!home && path.startsWith(`${home}/`));
}

/** True when the command's output is a credential dump (an env listing or a secret file read). */
export function dumpsSecrets(command: string, hermesHome?: string): boolean {
  for (const seg of segments(command)) {
    const tokens = seg.split(/\s+/).map(unquote);
    const first = tokens[0] ?? '';
    if (ENV_DUMP.has(first)) return true;
    const reader = (first.split('/').at(-1) ?? '').toLowerCase();
    if (!FILE_READERS.has(reader)) continue;
    let positional = tokens.slice(1).filter((t) => !t.startsWith('-'));
    if (PATTERN_FIRST.has(reader)) positional = positional.slice(1);
    if (positional.some((a) => isSecretFile(a, hermesHome))) return true;
  }
  return false;
}

function maskFormBody(text: string): string {
  const t = text.trim();
  if (text.includes('\n') || !FORM_BODY_RE.test(t)) return text;
  return t
    .split('&')
    .map((pair) => {
      const i = pair.indexOf('=');
      return i > 0 && SENSITIVE_PARAMS.has(pair.slice(0, i).toLowerCase()) ? `${pair.slice(0, i)}=${MASK}` : pair;
    })
    .join('&');
}

/**
 * `output` of `command` with its credentials masked, as Hermes masks terminal and background
 * process output. `hermesHome` lets a read of `<HERMES_HOME>/config.yaml` count as a secret file.
 */
export function redactTerminalOutput(output: string, command: string, hermesHome?: string): string {
  if (!output) return output;
  let text = output;
  if (PREFIX_LITERALS.some((p) => text.includes(p))) text = text.replace(PREFIX_RE, (_m, token: string) => maskToken(token));
  if (text.includes('.')) text = text.replace(ZHIPU_RE, (_m, token: string) => maskToken(token));
  const codeFile = !dumpsSecrets(command, hermesHome);
  if (!codeFile) text = maskAssignments(text);
  if (/uthorization/i.test(text)) text = text.replace(AUTH_HEADER_RE, (_m, head: string, scheme = '', cred: string) => head + scheme + maskToken(cred));
  if (text.includes(':')) {
    text = text.replace(SECRET_HEADER_RE, (_m, head: string, value: string) => head + maskToken(value));
    text = text.replace(TELEGRAM_RE, (_m, bot = '', id: string) => `${bot}${id}:${MASK}`);
  }
  if (text.includes('BEGIN') && text.includes('-----')) text = text.replace(PRIVATE_KEY_RE, '[REDACTED PRIVATE KEY]');
  if (text.includes('://')) {
    // In code, `postgresql://{user}:{password}@{host}` is a template, not a password.
    text = text.replace(DB_URL_RE, (m, head: string, pw: string, at: string) => (codeFile && /^\{.*\}$/.test(pw) ? m : `${head}${MASK}${at}`));
    text = text.replace(URL_TOKEN_RE, (_m, scheme: string, token: string, rest: string) => scheme + maskToken(token) + rest);
  }
  if (text.includes('eyJ')) text = text.replace(JWT_RE, (m) => maskToken(m));
  if (text.includes('&') && text.includes('=')) text = maskFormBody(text);
  if (text.includes('+')) {
    text = text.replace(PHONE_RE, (_m, phone: string) => {
      const keep = phone.length <= 8 ? 2 : 4;
      return `${phone.slice(0, keep)}****${phone.slice(-keep)}`;
    });
  }
  return text;
}
