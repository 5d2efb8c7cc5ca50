/**
 * Credential formats as they are written in the wild, with generated values: each one says what
 * must never be shown (its distinctive part) and how it appears in text. Values are generated
 * from a seed, so no real-looking key sits in the source and every run sees the same ones.
 */
export interface SecretFormat {
  readonly name: string;
  /** The credential as it is written (with its name or scheme where the format needs one). */
  readonly text: string;
  /** The parts that must never reach an output. */
  readonly secrets: readonly string[];
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const BASE64 = `${ALNUM}+/`;
const URL_SAFE = `${ALNUM}-_`;

/** Deterministic characters of `alphabet`: a small LCG, seeded per format, mixing case and digits. */
export function generated(seed: number, length: number, alphabet = ALNUM): string {
  let state = (seed * 2654435761) >>> 0;
  let out = '';
  while (out.length < length) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out += alphabet[(state >>> 8) % alphabet.length];
  }
  return out;
}

function shaped(name: string, seed: number, prefix: string, length: number, alphabet = ALNUM): SecretFormat {
  const body = generated(seed, length, alphabet);
  return { name, text: `${prefix}${body}`, secrets: [body] };
}

function named(name: string, seed: number, write: (value: string) => string, length = 24, alphabet = ALNUM): SecretFormat {
  const value = generated(seed, length, alphabet);
  return { name, text: write(value), secrets: [value] };
}

function privateKey(name: string, seed: number, label: string, escapedNewlines = false): SecretFormat {
  const lines = Array.from({ length: 6 }, (_, index) => generated(seed + index, index === 5 ? 28 : 64, BASE64));
  const newline = escapedNewlines ? '\\n' : '\n';
  const text = [`-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`].join(newline);
  return { name, text, secrets: lines };
}

function jwt(seed: number): SecretFormat {
  const payload = `eyJ${generated(seed, 40, URL_SAFE)}`;
  const signature = generated(seed + 1, 43, URL_SAFE);
  return { name: 'JWT', text: `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${payload}.${signature}`, secrets: [payload.slice(3), signature] };
}

/** `aws iam create-access-key` as a table, or the credentials CSV the console hands out: no name beside the secret. */
function awsSecretBesideId(seed: number): SecretFormat {
  const id = `AKIA${generated(seed, 16, UPPER_DIGITS)}`;
  const secret = generated(seed + 1, 40, BASE64);
  return { name: 'AWS secret key (bare, beside its key id)', text: `ci-deploy,${id},${secret}`, secrets: [id.slice(4), secret] };
}

/** The formats the issue names, and the common ones around them. */
export const SECRET_FORMATS: readonly SecretFormat[] = [
  shaped('OpenAI sk-', 1, 'sk-', 48),
  shaped('OpenAI sk-proj-', 2, 'sk-proj-', 64, URL_SAFE),
  shaped('Anthropic sk-ant-', 3, 'sk-ant-api03-', 80, URL_SAFE),
  shaped('Google AIza', 4, 'AIza', 35, URL_SAFE),
  shaped('GitHub ghp_', 5, 'ghp_', 36),
  shaped('GitHub gho_', 6, 'gho_', 36),
  shaped('GitHub ghu_', 7, 'ghu_', 36),
  shaped('GitHub ghs_', 8, 'ghs_', 36),
  shaped('GitHub ghr_', 9, 'ghr_', 36),
  named('GitHub github_pat_', 10, (value) => `github_pat_11${value.slice(0, 20)}_${value.slice(20)}`, 79),
  shaped('GitLab glpat-', 11, 'glpat-', 20, URL_SAFE),
  shaped('AWS access key id AKIA', 12, 'AKIA', 16, UPPER_DIGITS),
  shaped('AWS temporary key id ASIA', 13, 'ASIA', 16, UPPER_DIGITS),
  named('AWS secret key (env)', 14, (value) => `AWS_SECRET_ACCESS_KEY=${value}`, 40, BASE64),
  named('AWS secret key (credentials file)', 15, (value) => `aws_secret_access_key = ${value}`, 40, BASE64),
  shaped('Stripe sk_live_', 16, 'sk_live_', 24),
  shaped('Stripe sk_test_', 17, 'sk_test_', 24),
  shaped('Stripe rk_live_', 18, 'rk_live_', 24),
  named('Slack xoxb-', 19, (value) => `xoxb-1234567890-9876543210-${value}`),
  named('Slack xoxp-', 20, (value) => `xoxp-1234567890-9876543210-${value}`),
  shaped('Hugging Face hf_', 21, 'hf_', 34),
  shaped('npm npm_', 22, 'npm_', 36),
  jwt(23),
  named('Bearer header', 25, (value) => `Authorization: Bearer ${value}`, 40, URL_SAFE),
  named('Bearer token', 26, (value) => `Bearer ${value}`, 32),
  named('Basic header', 27, (value) => `Authorization: Basic ${value}=`, 28, BASE64),
  named('password in URL', 28, (value) => `postgres://deploy:${value}@db.internal.example:5432/app`, 16),
  named('token in git URL', 29, (value) => `https://x-access-token:${value}@git.example.com/org/repo.git`, 30),
  named('?key= in URL', 30, (value) => `https://maps.example.com/api/geocode?address=Main+St&key=${value}`, 32),
  named('?api_key= in URL', 31, (value) => `https://api.example.com/v2/items?api_key=${value}&page=2`, 32),
  named('?access_token= in URL', 32, (value) => `https://graph.example.com/me?access_token=${value}`, 40),
  named('?sig= in URL', 33, (value) => `https://store.example.com/blob/a.bin?sv=2024-01-01&sig=${value}`, 44, BASE64),
  privateKey('PEM RSA private key', 34, 'RSA PRIVATE KEY'),
  privateKey('PEM OpenSSH private key', 40, 'OPENSSH PRIVATE KEY'),
  privateKey('PEM private key, escaped newlines', 46, 'PRIVATE KEY', true),
  named('.env PASSWORD', 52, (value) => `DB_PASSWORD=${value}`, 14),
  named('.env SECRET', 53, (value) => `SESSION_SECRET="${value}"`, 32),
  named('.env TOKEN', 54, (value) => `export DEPLOY_TOKEN=${value}`, 28),
  named('.env KEY', 55, (value) => `MAILER_API_KEY=${value}`, 30),
  named('.env CREDENTIAL', 56, (value) => `BACKUP_CREDENTIAL=${value}`, 20),
  named('.env AUTH', 57, (value) => `PROXY_AUTH=${value}`, 20),
  named('.env PASS', 58, (value) => `SMTP_PASS=${value}`, 12),
  named('--password flag', 59, (value) => `--password ${value}`, 14),
  named('--api-key= flag', 60, (value) => `--api-key=${value}`, 30),
  // Passwords on command lines, as the programs that take them spell them.
  named('curl -u user:password', 61, (value) => `curl -fsS -u deploy:${value} https://api.example.com/v1/items`, 16),
  named('curl --user user:password', 62, (value) => `curl --user admin:${value} https://ci.example.com/api/json`, 16),
  named('mysql -pPASSWORD', 63, (value) => `mysql -h db.internal -u root -p${value} app`, 16),
  named('mysqldump --password=', 64, (value) => `mysqldump --password=${value} app > app.sql`, 16),
  named('sshpass -p', 65, (value) => `sshpass -p ${value} ssh deploy@build.example.com`, 16),
  named('docker login -p', 66, (value) => `docker login -u ci -p ${value} registry.example.com`, 16),
  named('docker login --password', 67, (value) => `docker login --username ci --password ${value} registry.example.com`, 16),
  named('redis-cli -a', 68, (value) => `redis-cli -h cache.internal -a ${value} ping`, 16),
  named('PGPASSWORD=', 69, (value) => `PGPASSWORD=${value} psql -h db.internal -U app`, 16),
  named('password in URL (mongodb+srv)', 70, (value) => `mongosh mongodb+srv://app:${value}@cluster0.example.net/app`, 16),
  awsSecretBesideId(71),
  named('AWS secret key (bare)', 73, (value) => value, 40, BASE64),
];

/** Ordinary text that resembles credentials and must come through every output unchanged. */
export const LOOK_ALIKES: readonly string[] = [
  'commit 3f786850e387550fdab836ed7e6dc881de23001b',
  'short sha 3f78685',
  'request 123e4567-e89b-12d3-a456-426614174000',
  'sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'a skeleton loader',
  'the task-list view',
  'sk-learn and scikit-learn',
  'hf_hub_download',
  'npm_config_cache',
  'max_tokens=4096',
  'NODE_ENV=production',
  'KEYBOARD_LAYOUT=us',
  'TOKEN_FILE=/run/secrets/deploy',
  'https://example.com/search?q=tokens&page=2',
  'interface Login { password: string; token: number }',
  '/home/user/projects/app/src/index.ts',
  'Bearer tokens expire',
  'see https://github.com/org/repo/pull/12',
  'git checkout 9fceb02d0ae598e95dc970b74767f19372d61af8',
  'Merge: 1a410efbd13591db07496601ebc7a059dd55cfe9 3c8b2c4ef0a4de97f3a5e2d1b6c7e8f9a0b1c2d3',
  'docker run -p 8080:80 nginx',
  'git push -u origin main',
  'mysql -p app',
  'sort -u names.txt',
  'const handleUserAccountSettingsChangeEvent = 1',
];
