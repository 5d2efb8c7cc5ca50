/**
 * Credentials in free text, found by their vendor's shape or by the name that labels them: the
 * one matcher behind every output (traffic log, log, notices, transcripts, exports). Each rule is
 * one left-to-right regex pass or a linear scan, so a multi-megabyte file answer costs a few
 * passes and never backtracks without bound. Ordinary identifiers (git SHAs, UUIDs, digests,
 * words such as "skeleton" or "task-list") match nothing: every shape needs a vendor prefix, a
 * secret-looking name or a place (URL password, Authorization header) that only credentials fill.
 */
import { isAwsSecretKey, openAwsSecretKeyStart } from './awsSecretKey';
import { addPrivateKeys, lastMatchAt, opensPrivateKey, PEM_BEGIN, PEM_END } from './privateKeys';
import { isSecretKey, isSecretName, QUERY_SECRET_NAMES } from './secretNames';
import type { TextRange } from './textRange';

export { isSecretKey, isSecretName };

export const REDACTED = '«redacted»';

export type { TextRange };

/** Vendor formats: the whole match is the credential. */
const VENDOR_SHAPES = [
  String.raw`\bsk-[A-Za-z0-9_-]{12,}`, // OpenAI sk-, sk-proj-; Anthropic sk-ant-
  String.raw`\bAIza[0-9A-Za-z_-]{20,}`, // Google API keys
  String.raw`\bgh[pousr]_[A-Za-z0-9]{20,}`,
  String.raw`\bgithub_pat_[A-Za-z0-9_]{20,}`,
  String.raw`\bgl(?:pat|dt|rt|ptt|soat|cbt|imt|ft|oas)-[A-Za-z0-9_-]{16,}`, // GitLab
  String.raw`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[A-Z0-9]{16}\b`, // AWS ids
  String.raw`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}`, // Stripe
  String.raw`\bwhsec_[A-Za-z0-9]{16,}`,
  String.raw`\bxox[abposr]-[A-Za-z0-9-]{10,}`, // Slack
  String.raw`\bxapp-[A-Za-z0-9-]{10,}`,
  String.raw`\bhf_[A-Za-z0-9]{30,}`, // Hugging Face
  String.raw`\bnpm_[A-Za-z0-9]{30,}`,
  String.raw`\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`, // JWT
  String.raw`\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`, // SendGrid
  String.raw`\bpypi-[A-Za-z0-9_-]{50,}`,
  String.raw`\bya29\.[A-Za-z0-9_-]{20,}`, // Google OAuth access tokens
  String.raw`\bGOCSPX-[A-Za-z0-9_-]{20,}`,
  String.raw`\bdop_v1_[a-f0-9]{64}\b`, // DigitalOcean
  String.raw`\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b`, // Shopify
];

/**
 * A value after `=` or a flag: quoted (to its closing quote or the line's end) or one word. A
 * word holds no `=` except as base64 padding at its end, so that `a=a=a=...` stays linear.
 */
const VALUE = String.raw`(?:"[^"\r\n]*"?|'[^'\r\n]*'?|(?:\\["'])?[^\s"'\x60&;,|<>()[\]{}\\=]+=*)`;


const hasDigit = (value: string) => /\d/.test(value);
const looksGenerated = (value: string) => hasDigit(value) && /[A-Za-z]/.test(value);

interface Rule {
  readonly pattern: RegExp;
  /** The capture group that is the secret; 0 is the whole match. */
  readonly group: number;
  /** Checks a regex cannot weigh: whether the name is secret, whether the value looks generated. */
  readonly accept?: (match: RegExpExecArray) => boolean;
}

const rule = (source: string, group: number, accept?: Rule['accept'], flags = 'g'): Rule => ({ pattern: new RegExp(source, `${flags}d`), group, accept });

/** How far back on its line a flag looks for the program it belongs to. */
const COMMAND_REACH = 512;

/** Whether `program` is named earlier on the match's line: `-p` is a password to mysql, a port to docker run. */
const afterProgram = (program: RegExp) => (match: RegExpExecArray) => {
  const before = match.input.slice(Math.max(0, match.index - COMMAND_REACH), match.index);
  // The command the flag is in: on its line, after the last `|`, `;` or `&` before it.
  const commandStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('|'), before.lastIndexOf(';'), before.lastIndexOf('&')) + 1;
  return program.test(before.slice(commandStart));
};

/** A program's short password flag (`sshpass -p x`, `mysql -px`): `attached` when the program takes the value only joined to the flag. */
const passwordFlag = (flags: string, program: RegExp, attached = false): Rule =>
  rule(String.raw`(?<![\w-])(?:${flags})${attached ? '' : String.raw`(?:=|[ \t]*)`}(?![-\s])(${VALUE})`, 1, afterProgram(program));
const secretName = (match: RegExpExecArray) => isSecretName(match[1] ?? '');
/** `token=getToken()`: the value is a call, so the text is code, not a setting. */
const calledValue = (match: RegExpExecArray) => /[([]/.test(match.input.charAt(match.index + match[0].length));
const secretSetting = (match: RegExpExecArray) => secretName(match) && !calledValue(match);

const RULES: readonly Rule[] = [
  rule(VENDOR_SHAPES.join('|'), 0),
  // NAME=value (.env lines, shell assignments, key=value lists); `==`, `=>` and `=~` are code.
  rule(String.raw`(?<![\w.$-])([A-Za-z_][\w.-]*)=(?![=>~])(${VALUE})`, 2, secretSetting),
  // .env and ini lines may space out the `=`: `aws_secret_access_key = ...`.
  // Only as a whole line, and not for camelCase names: `previousKey = key;` is code.
  rule(String.raw`(?:^|\\n)[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_.-]*)[ \t]+=[ \t]*(${VALUE})(?=[ \t]*(?:$|\\n))`, 2, (match) => secretName(match) && !/[a-z][A-Z]/.test(match[1] ?? ''), 'gm'),
  // "api_key": "value" in text that is not parsed as JSON (escaped or embedded).
  // The value stays on its line (as in JSON), like every rule's but a private key's: see `searchStart`.
  rule(String.raw`\\?"([A-Za-z_][\w.-]*)\\?"[ \t]*:[ \t]*\\?"([^"\\\r\n]+)`, 2, (match) => isSecretKey(match[1] ?? '')),
  // Headers and YAML: `X-Api-Key: v4lue`; a value without a digit is more often a type than a key.
  rule(String.raw`(?<![\w-])([A-Za-z][\w-]*)["']?[ \t]*:[ \t]*["']?([^\s"',;:\\<>()[\]{}]{6,})`, 2, (match) => secretName(match) && hasDigit(match[2] ?? '')),
  rule(String.raw`(?<![\w-])--?([A-Za-z][\w-]*)(?:=|[ \t]+)(?!-)(${VALUE})`, 2, secretSetting),
  // `aws configure set aws_secret_access_key <value>`, `aws_secret_access_key = <value>`: a
  // snake_case name, a space, a generated value.
  rule(String.raw`(?<![\w-])([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)(?:[ \t]*[=:])?[ \t]+([A-Za-z0-9/+=_.-]{16,})`, 2, (match) => secretName(match) && looksGenerated(match[2] ?? '')),
  rule(String.raw`\b(?:Bearer|Basic)[ \t]+([A-Za-z0-9._~+/=-]{8,})`, 1, (match) => hasDigit(match[1] ?? '') || (match[1] ?? '').length >= 20, 'gi'),
  rule(String.raw`\b(?:proxy-)?authorization\b\\?["']?[ \t]*[:=][ \t]*\\?["']?(?:(?:Bearer|Basic|Token|Digest|Negotiate|Bot)[ \t]+)?([^\s"',;\\]+)`, 1, undefined, 'gi'),
  // Passwords on command lines that no name labels.
  rule(String.raw`(?<![\w-])(?:-u|--user|-U|--proxy-user)(?:=|[ \t]*)["']?[^\s:"']*:([^\s"']+)`, 1, afterProgram(/\bcurl\b/)),
  passwordFlag('-p', /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mariadb(?:-dump|-admin)?)\b/, true),
  passwordFlag('-p', /\bsshpass\b/),
  passwordFlag('-p', /\b(?:docker|podman|nerdctl|buildah|helm[ \t]+registry)[ \t]+login\b/),
  passwordFlag('-a|--pass', /\bredis-cli\b/),
  // A bare AWS secret access key: 40 characters of base64 and no name beside it.
  rule(String.raw`(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])`, 0, (match) => isAwsSecretKey(match[0], match.input, match.index)),
  // scheme://user:password@host
  rule(String.raw`\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#@:"'<>\\]*:([^\s/?#@"'<>\\]+)@`, 1),
  rule(String.raw`[?&]([\w.\-[\]]+)=([^&#\s"'<>\\=?]+=*)`, 2, (match) => QUERY_SECRET_NAMES.has((match[1] ?? '').toLowerCase()) || secretName(match)),
];

/**
 * The regular expression engine runs out of stack on some rules over a run of several MB without
 * a break (a file's content in one JSON string): what it had not searched yet is masked whole,
 * since a credential could be in it, rather than the redaction failing and its output with it.
 */
function addRuleMatches(text: string, rule: Rule, found: TextRange[]): void {
  try {
    searchRule(text, rule, found);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    found.push({ start: rule.pattern.lastIndex, end: text.length });
  }
}

function searchRule(text: string, { pattern, group, accept }: Rule, found: TextRange[]): void {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const span = match.indices?.[group];
    if (span && span[1] > span[0] && (!accept || accept(match))) found.push({ start: span[0], end: span[1] });
    // A value that is no secret can hold a name and value that is (`-c 'deploy --token x'`): the
    // search goes on from where that value starts, not past it.
    else if (group > 0 && span) pattern.lastIndex = Math.max(match.index + 1, span[0]);
    if (match[0].length === 0) pattern.lastIndex++;
  }
}

function merged(ranges: TextRange[]): TextRange[] {
  ranges.sort((a, b) => a.start - b.start);
  const out: TextRange[] = [];
  for (const range of ranges) {
    const last = out.at(-1);
    if (last && range.start <= last.end) out[out.length - 1] = { start: last.start, end: Math.max(last.end, range.end) };
    else out.push(range);
  }
  return out;
}

/** Every credential in `text`, as sorted, non-overlapping ranges. */
export function findSecrets(text: string): TextRange[] {
  const found: TextRange[] = [];
  for (const each of RULES) addRuleMatches(text, each, found);
  addPrivateKeys(text, found);
  return merged(found);
}

/**
 * Pieces of one text (argv words joined by spaces, streamed chunks joined as they are), each
 * with its part of `ranges` masked; `offset` is where the first piece starts in the text.
 */
export function maskPieces(pieces: readonly string[], ranges: readonly TextRange[], separator = '', offset = 0): string[] {
  let at = offset;
  return pieces.map((piece) => {
    const end = at + piece.length;
    const inside = ranges
      .filter((range) => range.start < end && range.end > at)
      .map((range) => ({ start: Math.max(range.start, at) - at, end: Math.min(range.end, end) - at }));
    at = end + separator.length;
    return maskRanges(piece, inside);
  });
}

/** Pieces redacted as the one text they make together, so a credential split between them is found. */
export function redactPieces(pieces: readonly string[], separator: string): string[] {
  return maskPieces(pieces, findSecrets(pieces.join(separator)), separator);
}

/** `text` with each range replaced by REDACTED. */
export function maskRanges(text: string, ranges: readonly TextRange[]): string {
  if (ranges.length === 0) return text;
  let out = '';
  let at = 0;
  for (const { start, end } of ranges) {
    out += text.slice(at, start) + REDACTED;
    at = end;
  }
  return out + text.slice(at);
}

/**
 * Long texts seen again (a saved transcript is written whole after each change; most of it did
 * not change) are answered from memory: redaction is a pure function of the text, so this is
 * invisible except in time. Bounded by the characters it holds.
 */
const MEMO_MIN_CHARS = 1024;
const MEMO_MAX_CHARS = 8 * 1024 * 1024;
const memo = new Map<string, string>();
let memoChars = 0;

function remembered(text: string, redacted: string): string {
  memo.set(text, redacted);
  memoChars += text.length;
  for (const [oldest] of memo) {
    if (memoChars <= MEMO_MAX_CHARS) break;
    memo.delete(oldest);
    memoChars -= oldest.length;
  }
  return redacted;
}

export function redactSecrets(text: string): string {
  if (text.length < MEMO_MIN_CHARS) return maskRanges(text, findSecrets(text));
  const known = memo.get(text);
  if (known !== undefined) {
    // Refreshed as the newest, so what is written again and again stays.
    memo.delete(text);
    memo.set(text, known);
    return known;
  }
  return remembered(text, maskRanges(text, findSecrets(text)));
}

/**
 * Stands in for the rest of a credential that has not arrived yet: long, mixed, dotted like a JWT,
 * ending at an `@` as a URL's password does.
 */
const CONTINUATION = 'Q7xK2mV9pL4rT8wZ3nB6yH1cJ5dF0gS'.repeat(2);
const PROBE = `${CONTINUATION}.${CONTINUATION}.${CONTINUATION}@`;
/** An AWS key id's length: a word of capitals and digits is completed to it, since a longer one is no id. */
const KEY_ID_CHARS = 20;
const CAPITALS_END = /(?<![A-Za-z0-9])[A-Z0-9]{1,19}$/;
const CAPITALS = 'Q7XK2MV9PL4RT8WZ3NB6YH1C';

function capitalsStart(text: string): number | null {
  const word = CAPITALS_END.exec(text);
  return word ? reachingStart(text, `${CAPITALS.slice(0, KEY_ID_CHARS - word[0].length)}.`) : null;
}

function reachingStart(text: string, probe: string): number | null {
  const reaching = findSecrets(text + probe).filter((range) => range.start < text.length && range.end > text.length);
  return reaching[0]?.start ?? null;
}

/**
 * Where a credential that may go on past the end of `text` starts, or null: the text is probed
 * with a generated continuation, so every rule decides with one definition of each format.
 */
export function openSecretStart(text: string): number | null {
  return reachingStart(text, PROBE)
    ?? capitalsStart(text)
    ?? openAwsSecretKeyStart(text);
}

/**
 * Where a search for the credentials that reach past `fresh` into `text` can begin, for a text
 * read again with more appended (streamed pieces after their context): no rule matches across a
 * line break except a private key's, so the search begins at the line break before `fresh`
 * (which the rules that look behind see), or at the BEGIN line of a key still open above it.
 * The credentials found from there that reach past `fresh` are those a search of the whole text finds.
 */
export function searchStart(text: string, fresh: number): number {
  const lineBreak = fresh > 0 ? text.lastIndexOf('\n', fresh - 1) : -1;
  if (lineBreak <= 0) return 0;
  if (text.lastIndexOf('-----BEGIN', fresh) < 0) return lineBreak;
  const head = text.slice(0, fresh);
  const keyAt = lastMatchAt(PEM_BEGIN, head);
  return keyAt > lastMatchAt(PEM_END, head) ? Math.min(keyAt, lineBreak) : lineBreak;
}

/** A key printed over several log lines is dropped line by line until its END line, within a bound. */
const MAX_KEY_LINES = 200;

/**
 * Redacts a stream of lines (a log): one line at a time, except that a private key whose BEGIN
 * line went by hides the following lines up to its END line, since each body line alone is just
 * base64.
 */
export class SecretLines {
  private keyLinesLeft = 0;

  redact(line: string): string {
    let text = line;
    if (this.keyLinesLeft > 0) {
      PEM_END.lastIndex = 0;
      const end = PEM_END.exec(text);
      if (!end) {
        this.keyLinesLeft--;
        return REDACTED;
      }
      this.keyLinesLeft = 0;
      text = REDACTED + text.slice(end.index);
    }
    if (opensPrivateKey(text)) this.keyLinesLeft = MAX_KEY_LINES;
    return redactSecrets(text);
  }
}
