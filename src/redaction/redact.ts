/**
 * Removes secrets from JSON values before anyone sees them (traffic log, exports, saved
 * transcripts): values of secret-named keys, every value of an `env` or `headers` object, and
 * every credential the text matcher finds in any other string.
 */
import { isSecretKey, REDACTED, redactPieces, redactSecrets } from './secrets';

export { REDACTED };

export function redactValue(value: unknown, key: string | null = null, insideEnv = false): unknown {
  if (typeof value === 'string') return redactString(value, key, insideEnv);
  if (Array.isArray(value)) return redactArray(value, insideEnv);
  if (value !== null && typeof value === 'object') return redactRecord(value as Record<string, unknown>, insideEnv);
  return value;
}

/** The same value with its secrets removed; the shape (and so the type) is unchanged. */
export function redactJson<T>(value: T): T {
  return redactValue(value) as T;
}

function redactString(value: string, key: string | null, insideEnv: boolean): string {
  if (insideEnv || (key !== null && isSecretKey(key))) return value.length > 0 ? REDACTED : value;
  return redactSecrets(value);
}

/**
 * ACP passes env as [{name, value}] lists (terminal/create, MCP servers) and command lines as
 * lists of words: a list of strings is redacted as the line it makes, so `--token`, `<value>` or
 * a key split into words is found across the words.
 */
function redactArray(items: readonly unknown[], insideEnv: boolean): unknown[] {
  if (!insideEnv && items.every((item) => typeof item === 'string')) return redactPieces(items, ' ');
  return items.map((item) => redactValue(item, null, insideEnv));
}

function redactRecord(record: Record<string, unknown>, insideEnv: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // The variable's name in an env pair is no secret; its value is.
  const isEnvPair = insideEnv && typeof record.name === 'string' && 'value' in record;
  for (const [childKey, child] of Object.entries(record)) {
    if (isEnvPair && childKey === 'name') {
      out[childKey] = child;
      continue;
    }
    const childInEnv = insideEnv || childKey === 'env' || childKey === 'headers';
    out[childKey] = redactValue(child, childKey, childInEnv);
  }
  return out;
}

/** A frame's JSON, or undefined for a line that is not JSON. */
export function parseFrameText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Redacts one parsed frame back to text. A value too deeply nested to walk is scrubbed as text
 * instead, so a hostile frame still shows (without its secrets) rather than breaking the log.
 */
export function redactParsedFrame(value: unknown, text: string): string {
  try {
    return JSON.stringify(redactValue(value));
  } catch {
    return redactSecrets(text);
  }
}

/** Redacts one frame; a line that is not JSON is still scrubbed of credentials. */
export function redactFrameText(text: string): string {
  const value = parseFrameText(text);
  return value === undefined ? redactSecrets(text) : redactParsedFrame(value, text);
}
