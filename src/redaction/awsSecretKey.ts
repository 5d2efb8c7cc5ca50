/**
 * A bare AWS secret access key: 40 characters of base64 (30 random bytes) that no name labels,
 * as `aws iam create-access-key` prints it in a table or the console's credentials CSV holds it.
 * It has no prefix, so it is told from other 40-character words by how random it looks: git SHAs
 * (hex, no capitals) never qualify, and camelCase identifiers change between capitals, small
 * letters and digits far less often than random text does.
 */

/** How far around the key an AWS key id or an AWS word makes it count with less randomness. */
const HINT_REACH = 256;
const AWS_HINT = /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b|(?<![a-z])aws(?![a-z])|secret[ _-]?access/i;
/** Bits per character: random base64 of 40 characters scores 4.2 or more; a git SHA at most 4. */
const MIN_ENTROPY = 4.2;
/** Changes of character class between neighbours: about 25 of 39 in random base64, about 11 in a camelCase name. */
const MIN_CLASS_CHANGES = 18;

function classOf(char: string): number {
  if (char >= 'A' && char <= 'Z') return 0;
  if (char >= 'a' && char <= 'z') return 1;
  return char >= '0' && char <= '9' ? 2 : 3;
}

/** Capitals, small letters and digits together: every key but one in a thousand has all three. */
function mixesClasses(text: string): boolean {
  return /[A-Z]/.test(text) && /[a-z]/.test(text) && /\d/.test(text);
}

function classChanges(text: string): number {
  let changes = 0;
  for (let at = 1; at < text.length; at++) if (classOf(text.charAt(at)) !== classOf(text.charAt(at - 1))) changes++;
  return changes;
}

function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) bits -= (count / text.length) * Math.log2(count / text.length);
  return bits;
}

/** Whether `value`, found at `index` of `text`, is an AWS secret access key. */
export function isAwsSecretKey(value: string, text: string, index: number): boolean {
  if (!mixesClasses(value)) return false;
  const around = text.slice(Math.max(0, index - HINT_REACH), index + value.length + HINT_REACH);
  if (AWS_HINT.test(around.replace(value, ''))) return true;
  return entropy(value) >= MIN_ENTROPY && classChanges(value) >= MIN_CLASS_CHANGES;
}

/** The start of a run at the end of streamed text that could be the first part of a key, or null. */
const OPEN_RUN = /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{8,39}$/;

/**
 * Where a key still arriving starts in `text`, or null: a long probe runs past 40 characters, so
 * the run is judged by itself. Words cut short (`implementa`) change class too seldom to count.
 */
export function openAwsSecretKeyStart(text: string): number | null {
  const run = OPEN_RUN.exec(text);
  if (!run) return null;
  const classes = new Set(Array.from(run[0], classOf)).size;
  return classes >= 2 && classChanges(run[0]) * 3 >= run[0].length ? run.index : null;
}
