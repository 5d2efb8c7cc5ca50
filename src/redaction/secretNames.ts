/**
 * Names that label a secret value (an env variable, a flag, a JSON key, a query parameter), for
 * the credential rules in `secrets.ts` and the JSON redaction that masks secret-named keys whole.
 */
/** Words that make a name secret wherever they stand (a word ending in one counts: PGPASSWORD). */
const SECRET_WORDS = ['token', 'secret', 'secrets', 'password', 'passwd', 'passphrase', 'credential', 'credentials', 'apikey', 'authorization', 'cookie', 'privatekey'];
/** Words that make a name secret only as its last word of several (API_KEY, but not KEYBOARD). */
const SECRET_LAST_WORDS = new Set(['key', 'auth', 'pass', 'pwd', 'sig', 'signature']);
/** A last word that says the value describes a secret rather than being one (TOKEN_FILE, SECRET_NAME). */
const DESCRIBING_WORDS = new Set([
  'file', 'path', 'dir', 'url', 'uri', 'name', 'names', 'id', 'ids', 'type', 'length', 'len', 'size', 'count', 'min',
  'max', 'ttl', 'timeout', 'expiry', 'expires', 'expiration', 'endpoint', 'env', 'var', 'field', 'header', 'hint',
  'prompt', 'label', 'mode', 'kind', 'format', 'enabled', 'required', 'method', 'provider', 'version', 'policy',
  'helper', 'command', 'cmd', 'prefix', 'algorithm', 'source', 'sock', 'location', 'limit', 'index', 'schema',
]);
/** Query parameters that carry credentials although their names alone would not say so. */
export const QUERY_SECRET_NAMES = new Set(['key', 'sig', 'auth', 'pass', 'pwd']);

function nameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 0);
}

/**
 * Whether a name (an env variable, a flag, a JSON key, a query parameter) labels a secret value.
 * A lone weak word counts only in capitals, the way environment variables are written (KEY=).
 */
export function isSecretName(name: string): boolean {
  const words = nameWords(name);
  const last = words.at(-1);
  if (last === undefined || DESCRIBING_WORDS.has(last)) return false;
  if (words.some((word) => SECRET_WORDS.some((secret) => word.endsWith(secret)))) return true;
  return SECRET_LAST_WORDS.has(last) && (words.length > 1 || (name === name.toUpperCase() && last !== 'pwd'));
}

/** The names of JSON keys the traffic log has always treated as secret, on top of `isSecretName`. */
const SECRET_KEY_SUBSTRINGS = /(api[-_]?key|token|secret|password|passwd|authorization|auth[-_]?header|cookie|credential|private[-_]?key)/i;

/**
 * Every frame's keys (jsonrpc, method, params, sessionId, update, content, text…) are asked
 * about, thousands of times a second while an agent streams: the answers are kept, a bounded
 * number of them (the function is pure, so this shows only in time).
 */
const KEY_ANSWERS_MAX = 4096;
const keyAnswers = new Map<string, boolean>();

export function isSecretKey(key: string): boolean {
  const known = keyAnswers.get(key);
  if (known !== undefined) return known;
  const answer = SECRET_KEY_SUBSTRINGS.test(key) || isSecretName(key);
  if (keyAnswers.size >= KEY_ANSWERS_MAX) keyAnswers.clear();
  if (key.length <= 256) keyAnswers.set(key, answer);
  return answer;
}
