/**
 * Removes secrets from a raw JSON-RPC line before anyone sees it in the traffic log: values of
 * secret-looking keys, every value of an `env` object, and strings shaped like well-known keys.
 */
const secretKey = /(api[-_]?key|token|secret|password|passwd|authorization|auth[-_]?header|cookie|credential|private[-_]?key)/i;
const secretValue = /\b(sk-[A-Za-z0-9_-]{12,}|sk-ant-[A-Za-z0-9_-]{8,}|AIza[0-9A-Za-z_-]{20,}|gh[pousr]_[A-Za-z0-9]{20,}|xox[abpr]-[A-Za-z0-9-]{10,}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})\b/g;
export const REDACTED = '«redacted»';

export function redactValue(value: unknown, key: string | null = null, insideEnv = false): unknown {
  if (typeof value === 'string') return redactString(value, key, insideEnv);
  if (Array.isArray(value)) {
    // ACP passes env as [{name, value}] lists (terminal/create, MCP servers).
    return value.map((item) => redactValue(item, null, insideEnv));
  }
  if (value !== null && typeof value === 'object') return redactRecord(value as Record<string, unknown>, insideEnv);
  return value;
}

function redactString(value: string, key: string | null, insideEnv: boolean): string {
  if (insideEnv || (key !== null && secretKey.test(key))) return value.length > 0 ? REDACTED : value;
  return value.replace(secretValue, REDACTED);
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

/** Redacts one frame; a line that is not JSON is still scrubbed of key-shaped strings. */
export function redactFrameText(text: string): string {
  try {
    return JSON.stringify(redactValue(JSON.parse(text)));
  } catch {
    return text.replace(secretValue, REDACTED);
  }
}
