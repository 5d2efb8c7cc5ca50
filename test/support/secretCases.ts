/**
 * The `secrets` corpus: every credential format in every position it was found leaking, each
 * run through the outputs that position reaches (traffic channel, exports, the log, exit
 * notices, transcripts on disk), plus credentials split across two streamed pieces at every
 * position, plus look-alikes that must survive. A case is pure and synchronous: `run()` returns
 * undefined when it held, or one line saying what leaked or what was damaged, and where.
 */
import { FrameRedactor, redactFrames } from '../../src/redaction/frameRedaction';
import type { Frame } from '../../src/wire/frame';
import { trafficLine } from '../../src/inspector/trafficFormat';
import { describeExit } from '../../src/acp/agentExit';
import type { TranscriptsState } from '../../src/panel/transcripts';
import { displayCommand } from '../../src/terminals/launch';
import { LineLog } from '../../src/util/lineLog';
import { taggedLogger, type Logger } from '../../src/util/logger';
import { redactingLogger } from '../../src/redaction/redactedLog';
import { workspaceTranscripts } from '../../src/vscode/transcriptStorage';
import { StartupProgress } from '../../src/conversation/startupProgress';
import { LOOK_ALIKES, SECRET_FORMATS, type SecretFormat } from './secretFormats';
import { STREAM_KINDS, type StreamKind } from './secretStreams';

export interface SecretCase {
  readonly name: string;
  run(): string | undefined;
}

type Output = 'traffic' | 'traffic, pieces 500 ms apart' | 'export' | 'log' | 'notice' | 'transcript' | 'Copy report';
type Rendered = ReadonlyArray<readonly [Output, string]>;

/** A leak is any run of this many characters of a secret; shorter runs occur in ordinary text. */
const LEAK_WINDOW = 8;

// --- the outputs, driven the way the extension drives them -------------------------------------

/** The traffic channel: frames in order through its redactor, the last held piece released late. */
function trafficOutput(frames: readonly Frame[]): string {
  const redactor = new FrameRedactor();
  const lines = frames.flatMap((frame) => redactor.push(frame)).map(trafficLine);
  return [...lines, ...redactor.releaseStale(Number.POSITIVE_INFINITY).map(trafficLine)].join('\n');
}

/** The traffic channel when each piece waited out its hold (the next came more than 500 ms later). */
function stalledTrafficOutput(frames: readonly Frame[]): string {
  const redactor = new FrameRedactor();
  return frames.flatMap((frame) => [...redactor.push(frame), ...redactor.releaseStale(Number.POSITIVE_INFINITY)]).map(trafficLine).join('\n');
}

function framesOutputs(frames: readonly Frame[]): Rendered {
  return [
    ['traffic', trafficOutput(frames)],
    ['traffic, pieces 500 ms apart', stalledTrafficOutput(frames)],
    ['export', redactFrames(frames).map((frame) => frame.text).join('\n')],
  ];
}

/** The log as the extension makes it: redacting at the channel, tagged per session above it. */
function logOutput(write: (log: Logger) => void): string {
  const written: string[] = [];
  const capture = (message: string) => void written.push(message);
  write(taggedLogger(redactingLogger({ trace: capture, debug: capture, info: capture, warn: capture, error: capture }), 'session claude'));
  return written.join('\n');
}

/** Stderr arrives in arbitrary pieces; the agent host logs it line by line. */
function stderrLogOutput(stderr: string, pieceLength: number): string {
  return logOutput((log) => {
    const lines = new LineLog();
    lines.onLine((line) => log.debug(`stderr: ${line}`));
    for (let at = 0; at < stderr.length; at += pieceLength) lines.write(stderr.slice(at, at + pieceLength));
    lines.end();
  });
}

function noticeOutput(stderr: string): string {
  return describeExit('Claude Code', { code: 1, signal: null, requested: false, spawnError: null, stderrTail: stderr.split('\n') });
}

/** "Copy report" of a start that failed: the command, the banner's sentence and the stderr tail. */
function reportOutput(text: string): string {
  const progress = new StartupProgress({ label: 'Claude Code', command: 'claude-code-acp', args: ['--verbose', ...words(text)] }, { began: () => undefined, stalled: () => undefined });
  progress.begin('spawned');
  progress.fail();
  const view = progress.view(`Claude Code exited with code 1: ${text}`, ['loading config', `using ${text}`, 'fatal: cannot continue']);
  progress.dispose();
  return view.report ?? '';
}

function transcriptOutput(text: string): string {
  let stored: unknown;
  const memento = { get: () => stored, update: (_key: string, value: unknown) => ((stored = value), Promise.resolve()), keys: () => [] };
  const record = {
    tabId: 'tab-1', agentId: 'claude', sessionId: 'sess-1', title: 'Deploy', updatedAt: '2026-01-02T03:04:05.000Z',
    entries: [
      { kind: 'user' as const, id: 'u1', text: `use ${text} for the deploy` },
      { kind: 'agentMessage' as const, id: 'a1', text: `Configured it with ${text}.` },
      { kind: 'toolCall' as const, id: 't1', tool: {
        toolCallId: 'call-1', title: `Run deploy ${text}`, toolKind: 'execute' as const, status: 'completed' as const, content: [], locations: [],
        rawInput: JSON.stringify({ command: `deploy ${text}` }), rawOutput: `ok ${text}`, permission: null,
      } },
    ],
  };
  const state: TranscriptsState = { open: [record], activeTabId: 'tab-1', closed: [record] };
  workspaceTranscripts(memento as never).write(state);
  return JSON.stringify(stored);
}

// --- positions ----------------------------------------------------------------------------------

let clock = Date.UTC(2026, 0, 2, 3, 4, 5);
const inFrame = (message: unknown): Frame => ({ at: clock++, direction: 'in', text: JSON.stringify(message) });
const outFrame = (message: unknown): Frame => ({ at: clock++, direction: 'out', text: JSON.stringify(message) });
const request = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: 7, method, params });
const words = (text: string) => text.split(/[ \n]+/);
const chunk = (text: string) => request('session/update', { sessionId: 'sess-1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });

interface Position {
  readonly name: string;
  render(text: string): Rendered;
}

const POSITIONS: readonly Position[] = [
  { name: 'terminal/create args', render: (text) => framesOutputs([inFrame(request('terminal/create', { sessionId: 'sess-1', command: 'deploy', args: ['--verbose', ...words(text)], cwd: '/work/app' }))]) },
  { name: 'shell command line', render: (text) => framesOutputs([inFrame(request('terminal/create', { sessionId: 'sess-1', command: 'bash', args: ['-lc', `curl -fsS ${text} | jq .`] }))]) },
  { name: 'terminal command line in the log', render: (text) => [['log', logOutput((log) => log.info(`terminal term-1: shell ${displayCommand({ command: 'bash', args: ['-lc', `deploy ${text}`] })} in /work/app (pid 42, limit 1048576 bytes)`))]] },
  { name: 'MCP stdio args in session/new', render: (text) => framesOutputs([outFrame(request('session/new', { cwd: '/work/app', mcpServers: [{ name: 'db', command: 'npx', args: ['-y', '@acme/mcp-db', ...words(text)], env: [] }] }))]) },
  { name: 'URL query in a fetch tool call', render: (text) => framesOutputs([inFrame(request('session/update', { sessionId: 'sess-1', update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Fetch', kind: 'fetch', rawInput: { url: `https://api.example.com/v1/models?page=2&q=${text}` } } }))]) },
  { name: '.env in an fs/read_text_file answer', render: (text) => framesOutputs([outFrame({ jsonrpc: '2.0', id: 12, result: { content: `# local settings\nAPP_NAME=demo\n${text}\nDEBUG=1\n` } })]) },
  { name: 'tool call rawInput', render: (text) => framesOutputs([inFrame(request('session/update', { sessionId: 'sess-1', update: { sessionUpdate: 'tool_call_update', toolCallId: 'c2', rawInput: { command: `run ${text}`, description: 'Deploy' } } }))]) },
  { name: 'agent text', render: (text) => framesOutputs([inFrame(chunk(`Here is what I found: ${text} — keep it safe.`))]) },
  { name: 'a line that is not JSON', render: (text) => framesOutputs([{ at: clock++, direction: 'in', text: `[adapter] debug: ${text} {` }]) },
  { name: 'stderr tail in the exit notice', render: (text) => [['notice', noticeOutput(`starting\nconfig: ${text}\nfatal: cannot continue`)]] },
  { name: 'stderr in pieces, in the log', render: (text) => [['log', stderrLogOutput(`loading config\nusing ${text}\n`, 7)]] },
  { name: 'spawn line in the log', render: (text) => [['log', logOutput((log) => log.info(`spawning claude-code-acp ${text} in /work/app`))]] },
  { name: 'transcript on disk', render: (text) => [['transcript', transcriptOutput(text)]] },
  { name: 'Copy report of a failed start', render: (text) => [['Copy report', reportOutput(text)]] },
];

// --- checks -------------------------------------------------------------------------------------

function excerpt(output: string, at: number): string {
  return output.slice(Math.max(0, at - 40), at + 40).replace(/\s+/g, ' ');
}

function leakIn(secrets: readonly string[], rendered: Rendered): string | undefined {
  for (const [output, text] of rendered) {
    for (const secret of secrets) {
      const window = Math.min(LEAK_WINDOW, secret.length);
      for (let start = 0; start + window <= secret.length; start++) {
        const at = text.indexOf(secret.slice(start, start + window));
        if (at >= 0) return `leaked "${secret.slice(start, start + window)}" in ${output}: …${excerpt(text, at)}…`;
      }
    }
  }
  return undefined;
}

/** Each word must survive: some positions pass text on as separate arguments. */
function damageIn(lookAlike: string, rendered: Rendered): string | undefined {
  for (const [output, text] of rendered) {
    const lost = words(lookAlike).find((word) => word.length >= 3 && !text.includes(word));
    if (lost !== undefined) return `"${lost}" of "${lookAlike}" did not survive ${output}`;
  }
  return undefined;
}

/** The credentials whose pieces are split at every position, in every stream. */
const SPLIT_FORMATS = [
  'GitHub github_pat_', 'AWS access key id AKIA', 'Stripe sk_live_', '.env PASSWORD', 'password in URL', 'Bearer header',
  'curl -u user:password', 'mysql -pPASSWORD', 'sshpass -p', 'docker login -p', 'redis-cli -a', 'AWS secret key (bare, beside its key id)', 'AWS secret key (bare)',
];

function splitCases(format: SecretFormat, stream: StreamKind): SecretCase[] {
  const before = 'Set it to ';
  return Array.from({ length: format.text.length - 1 }, (_, index) => {
    const cut = index + 1;
    return {
      name: `${format.name} split after ${cut} characters × ${stream.name}`,
      run: () => {
        const text = `${before}${format.text} and retry.`;
        return leakIn(format.secrets, framesOutputs(stream.frames(text.slice(0, before.length + cut), text.slice(before.length + cut))));
      },
    };
  });
}

export function secretCases(): SecretCase[] {
  const placed = SECRET_FORMATS.flatMap((format) =>
    POSITIONS.map((position) => ({ name: `${format.name} × ${position.name}`, run: () => leakIn(format.secrets, position.render(format.text)) })));
  const split = SECRET_FORMATS.filter((format) => SPLIT_FORMATS.includes(format.name)).flatMap((format) => STREAM_KINDS.flatMap((stream) => splitCases(format, stream)));
  const lookAlikes = LOOK_ALIKES.flatMap((lookAlike) =>
    POSITIONS.map((position) => ({ name: `look-alike "${lookAlike}" × ${position.name}`, run: () => damageIn(lookAlike, position.render(lookAlike)) })));
  return [...placed, ...split, ...lookAlikes];
}
