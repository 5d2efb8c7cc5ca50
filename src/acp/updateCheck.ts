import type * as acp from '@agentclientprotocol/sdk';
import { toolKinds } from './toolKinds';

/**
 * A discriminated check for the `session/update` shapes agents send on every token, so those
 * skip the SDK's schema (a plain union of intersections it parses twice per update).
 *
 * It answers one question: would the SDK accept these params and hand them on unchanged? Only
 * then is the value used as it is. It never rejects: a wrong type, an unknown member (the SDK
 * strips it), a value the SDK would replace (an unknown enum, a null where it keeps a default),
 * a kind of content or update not listed here all answer "ask the SDK", which then validates,
 * cleans or drops exactly as before. The values come from `JSON.parse`, so `undefined` only
 * ever means a member that is not there.
 */
type Check = (value: unknown) => boolean;
/**
 * Members of one object and the check of each; a member not listed makes the object unusual.
 * Arrays and a prototype-free lookup rather than a Map: this runs for every streamed token.
 */
interface Shape {
  keys: string[];
  checks: Check[];
  known: Record<string, true>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every member is known and passes its check; missing members are checked as `undefined`. */
function matches(value: unknown, { keys, checks, known }: Shape): boolean {
  if (!isObject(value)) return false;
  for (const key in value) {
    if (known[key] !== true) return false;
  }
  for (let i = 0; i < keys.length; i++) {
    if (!(checks[i] as Check)(value[keys[i] as string])) return false;
  }
  return true;
}

const string: Check = (value) => typeof value === 'string';
/** `z.number()` refuses the infinities a JSON number too large for a double parses to. */
const finite: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const count: Check = (value) => Number.isInteger(value) && (value as number) >= 0;
const uint32: Check = (value) => count(value) && (value as number) <= 0xffff_ffff;
const absentOr = (check: Check): Check => (value) => value === undefined || check(value);
const nullishOr = (check: Check): Check => (value) => value === undefined || value === null || check(value);
const oneOf = (...values: string[]): Check => {
  const allowed = new Set(values);
  return (value) => typeof value === 'string' && allowed.has(value);
};
const listOf = (check: Check): Check => (value) => Array.isArray(value) && value.every(check);
const object = (members: Record<string, Check>): Check => {
  const known: Record<string, true> = Object.create(null) as Record<string, true>;
  for (const key of Object.keys(members)) known[key] = true;
  const shape: Shape = { keys: Object.keys(members), checks: Object.values(members), known };
  return (value) => matches(value, shape);
};
const anything: Check = () => true;
/** `_meta` is copied member by member, and a `__proto__` member would not survive the copy. */
const meta = nullishOr((value) => isObject(value) && !Object.hasOwn(value, '__proto__'));

const annotations = object({
  audience: nullishOr(listOf(oneOf('assistant', 'user'))),
  lastModified: nullishOr(string),
  priority: nullishOr(finite),
  _meta: meta,
});
/** Text is the only content block kind on the hot path; images, audio and resources ask the SDK. */
const textBlock = object({ type: oneOf('text'), text: string, annotations: nullishOr(annotations), _meta: meta });

const toolKind = oneOf(...toolKinds);
const toolStatus = oneOf('pending', 'in_progress', 'completed', 'failed');
const toolContentByType: Record<string, Check> = {
  content: object({ type: string, content: textBlock, _meta: meta }),
  diff: object({ type: string, path: string, oldText: nullishOr(string), newText: string, _meta: meta }),
  terminal: object({ type: string, terminalId: string, _meta: meta }),
};
const toolContent: Check = (value) => isObject(value) && typeof value.type === 'string' && Object.hasOwn(toolContentByType, value.type) && (toolContentByType[value.type] as Check)(value);
const location = object({ path: string, line: nullishOr(uint32), _meta: meta });

const chunk = { sessionUpdate: string, content: textBlock, messageId: nullishOr(string), _meta: meta };
const toolCallMembers = { sessionUpdate: string, toolCallId: string, name: nullishOr(string), rawInput: anything, rawOutput: anything, _meta: meta };

/** The hot variants by tag. Each variant's own tag is checked by the lookup itself. */
const updateByTag: Record<string, Check> = {
  agent_message_chunk: object(chunk),
  agent_thought_chunk: object(chunk),
  user_message_chunk: object(chunk),
  tool_call_update: object({
    ...toolCallMembers,
    title: nullishOr(string),
    kind: nullishOr(toolKind),
    status: nullishOr(toolStatus),
    content: nullishOr(listOf(toolContent)),
    locations: nullishOr(listOf(location)),
  }),
  // A new call's kind, status and lists must not be null: the SDK would put a default in.
  tool_call: object({
    ...toolCallMembers,
    title: string,
    kind: absentOr(toolKind),
    status: absentOr(toolStatus),
    content: absentOr(listOf(toolContent)),
    locations: absentOr(listOf(location)),
  }),
  plan: object({
    sessionUpdate: string,
    entries: listOf(object({ content: string, priority: oneOf('high', 'medium', 'low'), status: oneOf('pending', 'in_progress', 'completed'), _meta: meta })),
    _meta: meta,
  }),
  usage_update: object({
    sessionUpdate: string,
    used: count,
    size: count,
    cost: nullishOr(object({ amount: finite, currency: string, _meta: meta })),
    _meta: meta,
  }),
};

const update: Check = (value) => isObject(value) && typeof value.sessionUpdate === 'string' && Object.hasOwn(updateByTag, value.sessionUpdate) && (updateByTag[value.sessionUpdate] as Check)(value);
const notification = object({ sessionId: string, update, _meta: meta });

/**
 * The params of a `session/update` as they are, when they are one of the common shapes and
 * the SDK's own schema would pass them on unchanged; null means "let the SDK validate them".
 */
export function checkedSessionNotification(params: unknown): acp.SessionNotification | null {
  return notification(params) ? (params as acp.SessionNotification) : null;
}
