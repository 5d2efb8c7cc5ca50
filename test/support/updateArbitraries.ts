/**
 * `session/update` params for property tests: the shapes agents send, valid, then bent in
 * every way an agent gets them wrong (a member removed or added, a value of another type, an
 * enum the schema does not know, nulls, `__proto__` members, other content and update kinds).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { repoRoot } from './scriptedAgentSpec';

const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const nullish = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof(arbitrary, fc.constant(null), fc.constant(undefined));
/** Drops the members that came out `undefined`, as JSON would. */
function defined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined));
}
const record = (members: Record<string, fc.Arbitrary<unknown>>) => fc.record(members).map(defined);

const meta = nullish(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }));
const annotations = record({
  audience: nullish(fc.array(fc.constantFrom('assistant', 'user'), { maxLength: 2 })),
  lastModified: nullish(fc.string({ maxLength: 8 })),
  priority: nullish(fc.double({ noNaN: true, noDefaultInfinity: true })),
  _meta: meta,
});
const text = record({ type: fc.constant('text'), text: fc.string({ maxLength: 20, unit: 'grapheme' }), annotations: nullish(annotations), _meta: meta });
const otherBlock = fc.oneof(
  record({ type: fc.constant('image'), data: fc.base64String({ maxLength: 8 }), mimeType: fc.constant('image/png') }),
  record({ type: fc.constant('resource_link'), name: fc.string({ maxLength: 5 }), uri: fc.webUrl() }),
);
const block = fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: otherBlock });
const toolKind = fc.constantFrom('read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other');
const toolStatus = fc.constantFrom('pending', 'in_progress', 'completed', 'failed');
const toolContent = fc.oneof(
  record({ type: fc.constant('content'), content: block, _meta: meta }),
  record({ type: fc.constant('diff'), path: fc.constant('/w/a.ts'), oldText: nullish(fc.string({ maxLength: 10 })), newText: fc.string({ maxLength: 10 }), _meta: meta }),
  record({ type: fc.constant('terminal'), terminalId: fc.string({ maxLength: 5 }), _meta: meta }),
);
const location = record({ path: fc.constant('/w/a.ts'), line: nullish(fc.nat()), _meta: meta });
const toolId = fc.constantFrom('tool-1', 'tool-2');

const chunk = record({
  sessionUpdate: fc.constantFrom('agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk'),
  content: block,
  messageId: nullish(fc.string({ maxLength: 5 })),
  _meta: meta,
});
const toolCall = record({
  sessionUpdate: fc.constant('tool_call'),
  toolCallId: toolId,
  title: fc.string({ maxLength: 10 }),
  name: nullish(fc.string({ maxLength: 5 })),
  kind: maybe(toolKind),
  status: maybe(toolStatus),
  content: maybe(fc.array(toolContent, { maxLength: 2 })),
  locations: maybe(fc.array(location, { maxLength: 2 })),
  rawInput: maybe(fc.jsonValue({ maxDepth: 2 })),
  _meta: meta,
});
const toolCallUpdate = record({
  sessionUpdate: fc.constant('tool_call_update'),
  toolCallId: toolId,
  title: nullish(fc.string({ maxLength: 10 })),
  kind: nullish(toolKind),
  status: nullish(toolStatus),
  content: nullish(fc.array(toolContent, { maxLength: 2 })),
  locations: nullish(fc.array(location, { maxLength: 2 })),
  rawOutput: maybe(fc.jsonValue({ maxDepth: 2 })),
  _meta: meta,
});
const plan = record({
  sessionUpdate: fc.constant('plan'),
  entries: fc.array(record({ content: fc.string({ maxLength: 8 }), priority: fc.constantFrom('high', 'medium', 'low'), status: fc.constantFrom('pending', 'in_progress', 'completed'), _meta: meta }), { maxLength: 3 }),
  _meta: meta,
});
const usage = record({
  sessionUpdate: fc.constant('usage_update'),
  used: fc.nat(),
  size: fc.nat(),
  cost: nullish(record({ amount: fc.double({ noNaN: true, noDefaultInfinity: true }), currency: fc.constant('USD'), _meta: meta })),
  _meta: meta,
});
/** Variants the fast path leaves to the SDK, so the comparison covers that path too. */
const others = fc.oneof(
  record({ sessionUpdate: fc.constant('current_mode_update'), currentModeId: fc.string({ maxLength: 5 }) }),
  record({ sessionUpdate: fc.constant('session_info_update'), title: nullish(fc.string({ maxLength: 5 })) }),
  record({ sessionUpdate: fc.constant('available_commands_update'), availableCommands: fc.array(record({ name: fc.string({ maxLength: 4 }), description: fc.string({ maxLength: 4 }), input: nullish(record({ hint: fc.string({ maxLength: 4 }) })) }), { maxLength: 2 }) }),
  record({ sessionUpdate: fc.constant('not_a_variant'), anything: fc.jsonValue({ maxDepth: 1 }) }),
);

/** The hot variants in the shapes agents send them, none of them bent. */
export const hotUpdate = fc.oneof({ weight: 4, arbitrary: chunk }, toolCall, toolCallUpdate, plan, usage);
const validParams = record({
  sessionId: fc.constantFrom('s1', 's2'),
  update: fc.oneof({ weight: 6, arbitrary: hotUpdate }, { weight: 1, arbitrary: others }),
  _meta: meta,
});

type Edit = { at: number; kind: 'remove' | 'replace' | 'add' | 'proto' | 'null'; junk: unknown };
const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('remove', 'replace', 'add', 'proto', 'null'),
  junk: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('bogus', -1, 1.5, 4294967296, JSON.parse('1e400') as number, [], {})),
});

/** Every object in `value`, depth first, so an edit can pick one by number. */
function objects(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const item of value) objects(item, out);
  else if (typeof value === 'object' && value !== null) {
    out.push(value as Record<string, unknown>);
    for (const member of Object.values(value)) objects(member, out);
  }
  return out;
}

function applyEdit(value: unknown, { at, kind, junk: shared }: Edit): void {
  // The constants are shared between runs: a copy, so no edit reaches another run or itself.
  const junk = structuredClone(shared);
  const targets = objects(value);
  const target = targets[at % targets.length];
  if (!target) return;
  const keys = Object.keys(target);
  const key = keys[at % Math.max(1, keys.length)];
  if (kind === 'add') target[`extra${at % 3}`] = junk;
  // What JSON.parse makes of a "__proto__" member: an own property, not a prototype.
  else if (kind === 'proto') Object.defineProperty(target, '__proto__', { value: junk, enumerable: true, writable: true, configurable: true });
  else if (key === undefined) return;
  else if (kind === 'remove') delete target[key];
  else target[key] = kind === 'null' ? null : junk;
}

/**
 * Valid params, or valid params bent by a few edits: values JSON.parse can make (a number too
 * large for a double is one of them: Infinity).
 */
export const sessionUpdateParams: fc.Arbitrary<unknown> = fc.tuple(validParams, fc.array(edit, { maxLength: 3 })).map(([params, edits]) => {
  const copy = JSON.parse(JSON.stringify(params)) as unknown;
  for (const one of edits) applyEdit(copy, one);
  return copy;
});

/** The updates a real Claude adapter sent for a scripted turn (see test/support/recordAgentUpdates.ts). */
export function recordedUpdates(): unknown[] {
  const text = readFileSync(path.join(repoRoot, 'test', 'fixtures', 'claude-write.updates.jsonl'), 'utf8');
  return text.split('\n').filter((line) => line.length > 0).map((line) => ({ sessionId: 's1', update: JSON.parse(line) as unknown }));
}
