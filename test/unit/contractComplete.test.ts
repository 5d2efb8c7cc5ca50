/**
 * The contract is complete on both sides: every message type of each channel between the host and
 * a webview is sent by the side that owns it and handled by the other, so none is dead. Read from
 * the TypeScript program of src and webview: a message is sent where an object literal with its
 * `type` is written for the channel's type (or one of its members), and handled where a `case` of
 * a switch over the channel's messages names it, or where a handler map (`MessageHandlers`) has a
 * handler that takes it.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';
import { repoRoot } from '../support/scriptedAgentSpec';

interface Channel {
  /** The type alias in src/contract that lists the channel's messages. */
  alias: string;
  file: string;
  /** Where the messages are written, and where they are read. */
  sender: 'src' | 'webview';
}

const CHANNELS: Channel[] = [
  { alias: 'HostToWebview', file: 'src/contract/messages.ts', sender: 'src' },
  { alias: 'WebviewToHost', file: 'src/contract/messages.ts', sender: 'webview' },
  { alias: 'HostToInspector', file: 'src/contract/inspectorView.ts', sender: 'src' },
  { alias: 'InspectorToHost', file: 'src/contract/inspectorView.ts', sender: 'webview' },
];

function sourcesUnder(folder: string): string[] {
  return readdirSync(join(repoRoot, folder), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts')).map((file) => join(repoRoot, folder, file));
}

/** The program of src and webview, with `virtual` files (path -> text) added or served in place of files on disk. */
function program(virtual: Record<string, string> = {}): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(join(repoRoot, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  assert.ok(config);
  const served = new Map(Object.entries(virtual).map(([path, text]) => [join(repoRoot, path), text]));
  const host = ts.createCompilerHost(config.options);
  const fromDisk = host.getSourceFile.bind(host);
  const exists = host.fileExists.bind(host);
  host.getSourceFile = (fileName, version, ...rest) => {
    const text = served.get(fileName);
    return text === undefined ? fromDisk(fileName, version, ...rest) : ts.createSourceFile(fileName, text, version, true);
  };
  host.fileExists = (fileName) => served.has(fileName) || exists(fileName);
  const roots = served.size > 0 ? [...served.keys()] : [...sourcesUnder('src'), ...sourcesUnder('webview')];
  return ts.createProgram({ rootNames: roots, options: config.options, host });
}

/** Each member of a union (or the one type), without `undefined` and `null`. */
function members(type: ts.Type): ts.Type[] {
  const all = type.isUnion() ? type.types : [type];
  return all.filter((member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
}

function typeLiteral(checker: ts.TypeChecker, message: ts.Type): string | null {
  const property = message.getProperty('type');
  const type = property && checker.getTypeOfSymbol(property);
  return type?.isStringLiteral() ? type.value : null;
}

/** The channel's messages by their `type`. */
function messagesOf(checker: ts.TypeChecker, source: ts.SourceFile, alias: string): Map<string, ts.Type> {
  const declaration = source.statements.find((statement): statement is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(statement) && statement.name.text === alias);
  assert.ok(declaration, `${alias} in ${source.fileName}`);
  const byType = new Map<string, ts.Type>();
  for (const member of members(checker.getTypeAtLocation(declaration.name))) {
    const literal = typeLiteral(checker, member);
    assert.ok(literal, `${alias}: every member has a literal type`);
    byType.set(literal, member);
  }
  return byType;
}

interface Uses {
  sent: Map<string, Set<string>>;
  handled: Map<string, Set<string>>;
}

function note(uses: Map<string, Set<string>>, channel: string, type: string): void {
  const key = `${channel} ${type}`;
  uses.set(key, (uses.get(key) ?? new Set()).add(type));
}

/** `type` is the channel's message type, or a union of only its messages. */
function belongsTo(type: ts.Type, messages: Map<string, ts.Type>): boolean {
  const known = new Set(messages.values());
  const parts = members(type);
  return parts.length > 0 && parts.every((part) => known.has(part));
}

function findUses(checker: ts.TypeChecker, files: readonly ts.SourceFile[], channels: Map<Channel, Map<string, ts.Type>>): Uses {
  const uses: Uses = { sent: new Map(), handled: new Map() };
  const visit = (node: ts.Node, side: 'src' | 'webview') => {
    for (const [channel, messages] of channels) {
      if (channel.sender === side) noteSent(checker, node, channel.alias, messages, uses.sent);
      else noteHandled(checker, node, channel.alias, messages, uses.handled);
    }
    ts.forEachChild(node, (child) => visit(child, side));
  };
  for (const file of files) {
    const path = relative(repoRoot, file.fileName);
    if (path.startsWith('src/contract/')) continue;
    visit(file, path.startsWith('webview/') ? 'webview' : 'src');
  }
  return uses;
}

function noteSent(checker: ts.TypeChecker, node: ts.Node, alias: string, messages: Map<string, ts.Type>, sent: Map<string, Set<string>>): void {
  if (!ts.isObjectLiteralExpression(node)) return;
  const type = node.properties.find((property): property is ts.PropertyAssignment => ts.isPropertyAssignment(property) && property.name.getText() === 'type');
  if (!type || !ts.isStringLiteral(type.initializer)) return;
  const context = checker.getContextualType(node);
  if (context && belongsTo(context, messages) && messages.has(type.initializer.text)) note(sent, alias, type.initializer.text);
}

function noteHandled(checker: ts.TypeChecker, node: ts.Node, alias: string, messages: Map<string, ts.Type>, handled: Map<string, Set<string>>): void {
  // `switch (message.type) { case 'x': … }` over the channel's messages.
  if (ts.isCaseClause(node) && ts.isStringLiteral(node.expression)) {
    const subject = node.parent.parent.expression;
    if (ts.isPropertyAccessExpression(subject) && subject.name.text === 'type' && belongsTo(checker.getTypeAtLocation(subject.expression), messages)) {
      note(handled, alias, node.expression.text);
    }
  }
  // `{ x: (message) => … }` where the handler's parameter is the channel's message `x`.
  if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name)) {
    const handler = checker.getContextualType(node.initializer);
    const parameter = handler?.getCallSignatures()[0]?.getParameters()[0];
    const message = messages.get(node.name.text);
    if (parameter && message && checker.getTypeOfSymbol(parameter) === message) note(handled, alias, node.name.text);
  }
}

/** Per channel, the message types nobody sends and those nobody handles. */
function deadMessages(built: ts.Program, channelList: readonly Channel[]): Map<string, { unsent: string[]; unhandled: string[] }> {
  const checker = built.getTypeChecker();
  const channels = new Map(channelList.map((channel) => {
    const source = built.getSourceFile(join(repoRoot, channel.file));
    assert.ok(source, channel.file);
    return [channel, messagesOf(checker, source, channel.alias)] as const;
  }));
  const uses = findUses(checker, built.getSourceFiles().filter((file) => !file.isDeclarationFile && !file.fileName.includes('node_modules')), channels);
  return new Map([...channels].map(([channel, messages]) => {
    assert.ok(messages.size > 1, `${channel.alias} lists its messages`);
    const unsent = [...messages.keys()].filter((type) => !uses.sent.has(`${channel.alias} ${type}`));
    const unhandled = [...messages.keys()].filter((type) => !uses.handled.has(`${channel.alias} ${type}`));
    return [channel.alias, { unsent, unhandled }];
  }));
}

/** A contract of two channels with one dead message of each kind, and sides that mention them in ways that do not count. */
const PROBE: Record<string, string> = {
  'src/contract/probeMessages.ts': [
    "export type ProbeToWebview = { type: 'shown'; n: number } | { type: 'unsent' } | { type: 'unhandled' };",
    "export type ProbeToHost = { type: 'clicked' } | { type: 'ignored' };",
  ].join('\n'),
  'src/panel/probeHost.ts': [
    "import type { ProbeToHost, ProbeToWebview } from '../contract/probeMessages';",
    'export function post(message: ProbeToWebview): void { void message; }',
    "post({ type: 'shown', n: 1 });",
    "post({ type: 'unhandled' });",
    "export const notAMessage = { type: 'unsent' };",
    "export function handle(message: ProbeToHost): void { switch (message.type) { case 'clicked': return; default: return; } }",
  ].join('\n'),
  'webview/probeView.ts': [
    "import type { ProbeToHost, ProbeToWebview } from '../src/contract/probeMessages';",
    'export function post(message: ProbeToHost): void { void message; }',
    "post({ type: 'clicked' });",
    "export const ignoredHandlers = { ignored: (message: { type: 'ignored' }) => message };",
    "export function show(message: ProbeToWebview): void { switch (message.type) { case 'shown': case 'unsent': return; default: return; } }",
  ].join('\n'),
};

describe('the contract between host and webviews', () => {
  const dead = deadMessages(program(), CHANNELS);
  for (const channel of CHANNELS) {
    test(`every ${channel.alias} message is sent from ${channel.sender}/ and handled on the other side`, () => {
      assert.deepEqual(dead.get(channel.alias), { unsent: [], unhandled: [] });
    });
  }

  test('a message that is only declared, or only sent, is found dead', () => {
    const probe = deadMessages(program(PROBE), [
      { alias: 'ProbeToWebview', file: 'src/contract/probeMessages.ts', sender: 'src' },
      { alias: 'ProbeToHost', file: 'src/contract/probeMessages.ts', sender: 'webview' },
    ]);
    assert.deepEqual(Object.fromEntries(probe), {
      ProbeToWebview: { unsent: ['unsent'], unhandled: ['unhandled'] },
      ProbeToHost: { unsent: ['ignored'], unhandled: ['ignored'] },
    });
  });
});
