import { describe, expect, it } from 'vitest';
import { MASK, cutBeforeToken, mayContainSecret, redactDeep, redactSecrets } from '../../src/shared/redact.js';

// Realistic-looking fake credentials (none of them is real).
const OPENAI = 'sk-Ab3dEf5hIj7lMn9pQr1tUv3xYz5bCd7fGh9jKl1nOp3r';
const OPENAI_PROJ = 'sk-proj-Xy9_aB3dEf5hIj7lMn9pQr1tUv3xYz5bCd7fGh9jKl1nOp3rSt5vWx7z';
const ANTHROPIC = 'sk-ant-api03-Zq8Wx2Ec4Rv6Tb8Yn0Um2Io4Pl6Kj8Hg0Fd2Sa4Qw6Er8Ty0Ui2Op4As6Df8Gh0Jk2Lz-AbCdEfAA';
const OPENROUTER = 'sk-or-v1-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const GITHUB = 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const GITHUB_PAT = 'github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTU';
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const GOOGLE = 'AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q';
const SLACK = 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx';
const HF = 'hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh';
const STRIPE = 'sk_live_51AbCdEfGhIjKlMnOpQrStUvWx';
const STRIPE_RK = 'rk_live_51AbCdEfGhIjKlMnOpQrStUvWx';
const TELEGRAM = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1';
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const PEM_BODY =
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\nNMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ';
const PEM = `-----BEGIN PRIVATE KEY-----\n${PEM_BODY}\n-----END PRIVATE KEY-----`;

/** True when no 8-character run of `secret` survives in `text`. */
function leaks(text: string, secret: string): string | null {
  for (let i = 0; i + 8 <= secret.length; i++) {
    const piece = secret.slice(i, i + 8);
    if (text.includes(piece)) return piece;
  }
  return null;
}

describe('redactSecrets: API keys', () => {
  const cases: Array<[string, string, string]> = [
    ['OpenAI', OPENAI, `sk-${MASK}`],
    ['OpenAI project', OPENAI_PROJ, `sk-proj-${MASK}`],
    ['Anthropic', ANTHROPIC, `sk-ant-api03-${MASK}`],
    ['OpenRouter', OPENROUTER, `sk-or-v1-${MASK}`],
    ['GitHub classic', GITHUB, `ghp_${MASK}`],
    ['GitHub fine-grained', GITHUB_PAT, `github_pat_${MASK}`],
    ['AWS access key id', AWS, `AKIA${MASK}`],
    ['Google', GOOGLE, `AIza${MASK}`],
    ['Slack', SLACK, `xoxb-${MASK}`],
    ['Hugging Face', HF, `hf_${MASK}`],
    ['Stripe secret', STRIPE, `sk_live_${MASK}`],
    ['Stripe restricted', STRIPE_RK, `rk_live_${MASK}`],
    ['Telegram bot token', TELEGRAM, `123456789:${MASK}`],
  ];
  for (const [name, key, masked] of cases) {
    it(`${name}: masked in prose, keeping only its prefix`, () => {
      const out = redactSecrets(`Here is my key ${key} — use it.`);
      expect(out).toBe(`Here is my key ${masked} — use it.`);
      expect(leaks(out, key.slice(masked.length - MASK.length))).toBeNull();
    });
  }

  it('other GitHub token kinds (gho_, ghu_, ghs_, ghr_)', () => {
    for (const p of ['gho_', 'ghu_', 'ghs_', 'ghr_']) {
      expect(redactSecrets(`token ${p}A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8 end`)).toBe(`token ${p}${MASK} end`);
    }
  });

  it('keys inside quotes, JSON, URLs and after punctuation', () => {
    expect(redactSecrets(`{"key":"${OPENAI}"}`)).toBe(`{"key":"sk-${MASK}"}`);
    expect(redactSecrets(`('${GITHUB}')`)).toBe(`('ghp_${MASK}')`);
    expect(redactSecrets(`https://api.example.com/v1?key=${GOOGLE}`)).toBe(`https://api.example.com/v1?key=AIza${MASK}`);
    expect(redactSecrets(`[${AWS}]`)).toBe(`[AKIA${MASK}]`);
  });

  it('keys after an escaped newline in JSON text (\\n)', () => {
    const text = JSON.stringify({ content: `first line\n${OPENAI_PROJ}\nAWS=${AWS}` });
    const out = redactSecrets(text);
    expect(leaks(out, OPENAI_PROJ.slice(8))).toBeNull();
    expect(leaks(out, AWS.slice(4))).toBeNull();
    expect(JSON.parse(out).content).toBe(`first line\nsk-proj-${MASK}\nAWS=AKIA${MASK}`);
  });

  it('several keys in one text', () => {
    const out = redactSecrets(`a=${OPENAI} b=${GITHUB} c=${HF}`);
    expect(out).toBe(`a=sk-${MASK} b=ghp_${MASK} c=hf_${MASK}`);
  });
});

describe('redactSecrets: authorization headers', () => {
  it('Authorization: Bearer <token>', () => {
    expect(redactSecrets('Authorization: Bearer abc123def456ghi789')).toBe(`Authorization: Bearer ${MASK}`);
    expect(redactSecrets('curl -H "Authorization: Bearer abc.def-123" https://x')).toBe(`curl -H "Authorization: Bearer ${MASK}" https://x`);
    expect(redactSecrets(`{"Authorization": "Bearer ${OPENAI}"}`)).toBe(`{"Authorization": "Bearer sk-${MASK}"}`);
  });

  it('Authorization: Basic <b64> and other schemes', () => {
    expect(redactSecrets('Authorization: Basic dXNlcjpwYXNzd29yZA==')).toBe(`Authorization: Basic ${MASK}`);
    expect(redactSecrets('authorization: token abcdef0123456789')).toBe(`authorization: token ${MASK}`);
    expect(redactSecrets('Authorization: 0123456789abcdef0123')).toBe(`Authorization: ${MASK}`);
  });

  it('a bare Bearer token', () => {
    expect(redactSecrets('send Bearer a1B2c3D4e5F6g7H8 along')).toBe(`send Bearer ${MASK} along`);
    expect(redactSecrets(`Bearer ${JWT}`)).toBe(`Bearer eyJ${MASK}`);
  });

  it('a bare Basic credential only when it decodes to user:password', () => {
    expect(redactSecrets(`Basic ${btoa('admin:hunter2')} works`)).toBe(`Basic ${MASK} works`);
    expect(redactSecrets('Basic authentication sends credentials')).toBe('Basic authentication sends credentials');
    expect(redactSecrets('Basic Settings')).toBe('Basic Settings');
  });

  it('leaves prose about bearer tokens alone', () => {
    for (const text of [
      'The API uses Bearer tokens for authentication.',
      'Send a Bearer token in the Authorization header.',
      'Authorization: required for every request',
      'Authorization: Bearer $TOKEN',
      'Authorization: Bearer ${OPENAI_API_KEY}',
      'Authorization: Bearer <your token>',
      'authorization: the process of granting access',
    ]) {
      expect(redactSecrets(text)).toBe(text);
    }
  });
});

describe('redactSecrets: JWTs and PEM blocks', () => {
  it('a JWT anywhere', () => {
    const out = redactSecrets(`token is ${JWT}.`);
    expect(out).toBe(`token is eyJ${MASK}.`);
    expect(leaks(out, JWT.slice(20))).toBeNull();
  });

  it('keeps the BEGIN/END lines of a PEM private key and masks its body', () => {
    const out = redactSecrets(`key:\n${PEM}\ndone`);
    expect(out).toBe(`key:\n-----BEGIN PRIVATE KEY-----\n${MASK}\n-----END PRIVATE KEY-----\ndone`);
    expect(leaks(out, PEM_BODY)).toBeNull();
  });

  it('RSA, EC, OpenSSH, encrypted and PGP keys; two blocks', () => {
    for (const label of ['RSA PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'PGP PRIVATE KEY BLOCK']) {
      const text = `-----BEGIN ${label}-----\n${PEM_BODY}\n-----END ${label}-----`;
      expect(redactSecrets(text)).toBe(`-----BEGIN ${label}-----\n${MASK}\n-----END ${label}-----`);
    }
    const two = redactSecrets(`${PEM}\ntext between\n${PEM.replace(/PRIVATE KEY/g, 'RSA PRIVATE KEY')}`);
    expect(two).toBe(
      `-----BEGIN PRIVATE KEY-----\n${MASK}\n-----END PRIVATE KEY-----\ntext between\n-----BEGIN RSA PRIVATE KEY-----\n${MASK}\n-----END RSA PRIVATE KEY-----`,
    );
  });

  it('a PEM block inside JSON text (escaped newlines)', () => {
    const args = JSON.stringify({ path: 'id_rsa', content: PEM });
    const out = redactSecrets(args);
    expect(out).toContain(`-----BEGIN PRIVATE KEY-----\\n${MASK}\\n-----END PRIVATE KEY-----`);
    expect(leaks(out, PEM_BODY.replace(/\n/g, ''))).toBeNull();
    expect(JSON.parse(out)).toEqual({ path: 'id_rsa', content: `-----BEGIN PRIVATE KEY-----\n${MASK}\n-----END PRIVATE KEY-----` });
  });

  it('a cut-off PEM block (a truncated preview) is masked to the end', () => {
    const out = redactSecrets(`-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY.slice(0, 100)}`);
    expect(out).toBe(`-----BEGIN RSA PRIVATE KEY-----\n${MASK}`);
  });

  it('public keys and certificates are not secrets', () => {
    const cert = `-----BEGIN CERTIFICATE-----\n${PEM_BODY}\n-----END CERTIFICATE-----`;
    expect(redactSecrets(cert)).toBe(cert);
    const pub = `-----BEGIN PUBLIC KEY-----\n${PEM_BODY}\n-----END PUBLIC KEY-----`;
    expect(redactSecrets(pub)).toBe(pub);
  });
});

describe('redactSecrets: URLs with credentials', () => {
  it('masks only the password', () => {
    const cases: Array<[string, string]> = [
      ['postgres://user:s3cret@db.example.com:5432/app', `postgres://user:${MASK}@db.example.com:5432/app`],
      ['postgresql://u:p@h/db', `postgresql://u:${MASK}@h/db`],
      ['mysql://root:pa$$w0rd@127.0.0.1/mysql', `mysql://root:${MASK}@127.0.0.1/mysql`],
      ['mongodb+srv://admin:Xy9z@cluster0.abc.mongodb.net/test?retryWrites=true', `mongodb+srv://admin:${MASK}@cluster0.abc.mongodb.net/test?retryWrites=true`],
      ['redis://:hunter2@cache:6379/0', `redis://:${MASK}@cache:6379/0`],
      ['amqp://guest:guest@rabbit/', `amqp://guest:${MASK}@rabbit/`],
      ['https://deploy:tok3n@git.example.com/repo.git', `https://deploy:${MASK}@git.example.com/repo.git`],
    ];
    for (const [input, output] of cases) expect(redactSecrets(`url ${input} here`)).toBe(`url ${output} here`);
  });

  it('leaves URLs without a password alone', () => {
    for (const text of [
      'https://example.com:8080/path?x=1',
      'ssh://git@github.com/org/repo.git',
      'see https://user@example.com/profile',
      'mailto:someone@example.com',
      'http://localhost:3000/api/session?session_id=abc123',
    ]) {
      expect(redactSecrets(text)).toBe(text);
    }
  });
});

describe('redactSecrets: secret assignments', () => {
  it('env files and shell lines', () => {
    const env =
      'OPENAI_API_KEY=abc123def456\nGITHUB_TOKEN=plainletters\nDB_PASSWORD=hunter2\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nDEBUG=true\nPORT=8080';
    expect(redactSecrets(env)).toBe(`OPENAI_API_KEY=${MASK}\nGITHUB_TOKEN=${MASK}\nDB_PASSWORD=${MASK}\nAWS_SECRET_ACCESS_KEY=${MASK}\nDEBUG=true\nPORT=8080`);
    expect(redactSecrets('export STRIPE_SECRET=abcdefgh && run')).toBe(`export STRIPE_SECRET=${MASK} && run`);
  });

  it('JSON, YAML, Python and JS assignments', () => {
    expect(redactSecrets('{"api_key": "abc", "name": "x"}')).toBe(`{"api_key": "${MASK}", "name": "x"}`);
    expect(redactSecrets('{"password":"correct horse battery staple"}')).toBe(`{"password":"${MASK}"}`);
    expect(redactSecrets('client_secret: "abc.def"')).toBe(`client_secret: "${MASK}"`);
    expect(redactSecrets("password = 'hunter2'")).toBe(`password = '${MASK}'`);
    expect(redactSecrets("const apiKey = 'AbCdEf123';")).toBe(`const apiKey = '${MASK}';`);
    expect(redactSecrets('api_key: 0123456789abcdef')).toBe(`api_key: ${MASK}`);
    expect(redactSecrets("{'private_key': 'xyz', 'access_key': 'abc'}")).toBe(`{'private_key': '${MASK}', 'access_key': '${MASK}'}`);
    expect(redactSecrets('secret => "s3cr3t"')).toBe(`secret => "${MASK}"`);
    expect(redactSecrets('it\'s "password": "it\'s mine"')).toBe(`it's "password": "${MASK}"`);
  });

  it('query strings and command-line flags', () => {
    expect(redactSecrets('GET /cb?access_token=a1b2c3d4e5&state=xyz')).toBe(`GET /cb?access_token=${MASK}&state=xyz`);
    expect(redactSecrets('mysqldump --password=Sup3rS3cret db')).toBe(`mysqldump --password=${MASK} db`);
  });

  it('JSON inside a JSON string (tool call arguments)', () => {
    const args = JSON.stringify({ path: 'config.json', content: JSON.stringify({ api_key: 'abc123', model: 'gpt' }) });
    const out = redactSecrets(args);
    expect(JSON.parse(JSON.parse(out).content)).toEqual({ api_key: MASK, model: 'gpt' });
    const env = JSON.stringify({ path: '.env', content: 'A=1\nMY_TOKEN=xyz789\nOTHER_SECRET=plain\n' });
    expect(JSON.parse(redactSecrets(env)).content).toBe(`A=1\nMY_TOKEN=${MASK}\nOTHER_SECRET=${MASK}\n`);
  });

  it('leaves code, schemas and placeholders alone', () => {
    for (const text of [
      'max_tokens=4096',
      '"input_tokens": 120, "output_tokens": 7',
      'token_type: "bearer"',
      'const token = await getToken();',
      'def login(username, password=None):',
      'requests.post(url, token=token, api_key=api_key)',
      'api_key = os.environ["OPENAI_API_KEY"]',
      'token: string;',
      'password: z.string().min(8)',
      '"token": {"type": "string"}',
      'password: ********',
      'API_KEY=$OPENAI_API_KEY',
      'GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}',
      'api_key: <your key here>',
      '"password": ""',
      '"secret": false',
      'if (token === "abc") return;',
      'token: 5',
      'Your password: must be at least 8 characters.',
      'The secret = happiness',
    ]) {
      expect(redactSecrets(text), text).toBe(text);
    }
  });
});

describe('redactSecrets: no false positives', () => {
  const plain = [
    'Please update the task-list and the risk-assessment before the desk-review.',
    'The tokenizer splits text into tokens; a token is usually a word piece.',
    'Keep your API key secret and never share your password.',
    'commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it',
    'session 550e8400-e29b-41d4-a716-446655440000 started',
    '/home/user/.ssh/id_rsa and ~/.config/hermes/secret_stuff.txt',
    'C:\\Users\\me\\secrets\\notes.txt',
    'disk-usage sk-learn sk-8 ask-me-anything',
    'Meeting at 12:30, call +1 555 0100; ticket #12345678',
    'const skill = "sk-" + suffix;',
    'hf_hub_download(repo_id="x")',
    'The AKIA prefix identifies AWS access keys.',
    'eyJ is what base64 JSON starts with',
    '-----BEGIN CERTIFICATE----- is the header',
    'short',
    '',
  ];
  for (const text of plain) {
    it(JSON.stringify(text.slice(0, 50)), () => {
      expect(redactSecrets(text)).toBe(text);
    });
  }

  it('an `sk-` run without a digit is a slug, not a key', () => {
    const slug = 'sk-very-long-hyphenated-css-class-name-here';
    expect(redactSecrets(slug)).toBe(slug);
  });
});

describe('redactSecrets: behaviour', () => {
  it('returns the same string when nothing matched, and is idempotent', () => {
    const text = 'nothing secret here, just a token of appreciation';
    expect(redactSecrets(text)).toBe(text);
    const dirty = `k=${OPENAI} ${JWT} postgres://u:p@h/db ${PEM} Authorization: Bearer abcdef1234567890 {"password": "x"}`;
    const once = redactSecrets(dirty);
    expect(once).not.toBe(dirty);
    expect(redactSecrets(once)).toBe(once);
  });

  it('the prefilter: marker-free text is recognised without running the rules', () => {
    expect(mayContainSecret('Hello, how are you today?')).toBe(false);
    expect(mayContainSecret('Session 42 about something')).toBe(false);
    for (const s of [
      OPENAI,
      GITHUB,
      AWS,
      GOOGLE,
      SLACK,
      HF,
      STRIPE,
      TELEGRAM,
      JWT,
      PEM,
      'postgres://u:p@h/db',
      'Bearer x',
      'Basic x',
      'password=x',
      'MY_TOKEN=x',
      'API_KEY=x',
    ]) {
      expect(mayContainSecret(s), s).toBe(true);
    }
  });

  it('never keeps more than the vendor prefix of a key (nor anything that follows it)', () => {
    const keys: Array<[string, string]> = [
      [OPENAI, 'sk-'],
      [OPENAI_PROJ, 'sk-proj-'],
      [ANTHROPIC, 'sk-ant-api03-'],
      [OPENROUTER, 'sk-or-v1-'],
      [GITHUB, 'ghp_'],
      [GITHUB_PAT, 'github_pat_'],
      [AWS, 'AKIA'],
      [GOOGLE, 'AIza'],
      [SLACK, 'xoxb-'],
      [HF, 'hf_'],
      [STRIPE, 'sk_live_'],
      [TELEGRAM, '123456789:'],
    ];
    for (const [key, prefix] of keys) {
      expect(redactSecrets(key), key).toBe(prefix + MASK);
      expect(redactSecrets(`"${key}"`), key).toBe(`"${prefix}${MASK}"`);
    }
  });
});

describe('redactDeep', () => {
  it('masks strings at any depth and copies only what changed', () => {
    const untouched = { role: 'user', content: 'hi', meta: { n: 1, ok: true, list: ['a', 'b'] } };
    const input = {
      title: `key ${OPENAI}`,
      count: 3,
      flag: null,
      messages: [untouched, { role: 'tool', content: `DATABASE_URL=postgres://u:p@h/db`, tool_calls: [{ function: { arguments: `{"token": "abc123"}` } }] }],
    };
    const frozen = structuredClone(input);
    const out = redactDeep(input);
    expect(input).toEqual(frozen); // never mutates
    expect(out.title).toBe(`key sk-${MASK}`);
    expect(out.count).toBe(3);
    expect(out.messages[0]).toBe(untouched); // unchanged branches are shared
    expect(out.messages[1]!.content).toBe(`DATABASE_URL=postgres://u:${MASK}@h/db`);
    expect((out.messages[1] as any).tool_calls[0].function.arguments).toBe(`{"token": "${MASK}"}`);
  });

  it('returns the same reference when nothing changed (frozen values too)', () => {
    const rows = Object.freeze([Object.freeze({ title: 'plain', n: 1 }), Object.freeze({ title: 'also plain' })]);
    expect(redactDeep(rows)).toBe(rows);
    const changed = redactDeep([...rows, Object.freeze({ title: `x ${GITHUB}` })]);
    expect(changed[0]).toBe(rows[0]);
    expect(changed[2]).toEqual({ title: `x ghp_${MASK}` });
  });

  it('handles strings, primitives, class instances, cycles and __proto__ keys', () => {
    expect(redactDeep(`a ${GITHUB}`)).toBe(`a ghp_${MASK}`);
    expect(redactDeep(42)).toBe(42);
    expect(redactDeep(undefined)).toBeUndefined();
    const date = new Date(0);
    expect(redactDeep({ d: date }).d).toBe(date);
    const cyclic: Record<string, unknown> = { s: `k ${GITHUB}` };
    cyclic.self = cyclic;
    const out = redactDeep(cyclic);
    expect(out.s).toBe(`k ghp_${MASK}`);
    const parsed = JSON.parse(`{"__proto__": {"x": "${GITHUB}"}, "y": 1}`);
    const safe = redactDeep(parsed);
    expect(Object.getPrototypeOf(safe)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(safe, '__proto__')!.value).toEqual({ x: `ghp_${MASK}` });
  });
});

describe('cutBeforeToken', () => {
  it('keeps short text whole and cuts long text before a split word or token', () => {
    expect(cutBeforeToken('short text', 64)).toBe('short text');
    expect(cutBeforeToken('hello wonderful world', 12)).toBe('hello');
    expect(cutBeforeToken('hello world again', 11)).toBe('hello world');
  });

  it('never keeps half an API key', () => {
    const text = `Please use the key ${OPENAI_PROJ} for the staging box`;
    const cut = cutBeforeToken(text, 40);
    expect(cut).toBe('Please use the key');
    expect(redactSecrets(cut)).toBe(cut);
  });

  it('cuts through a run longer than it would back off over (64 characters are enough to recognise a key)', () => {
    const blob = 'A'.repeat(300);
    expect(cutBeforeToken(`x ${blob}`, 120)).toHaveLength(120);
    expect(cutBeforeToken(blob, 64)).toBe(blob.slice(0, 64));
    const keyed = cutBeforeToken(`${OPENAI_PROJ}${OPENAI_PROJ}`, 70);
    expect(redactSecrets(keyed)).toBe(`sk-proj-${MASK}`);
  });
});
