import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import { clientCapabilities } from '../../src/acp/clientCapabilities';
import { BoundedText } from '../../src/terminals/boundedText';
import { commandEnvironment, displayCommand, planLaunch } from '../../src/terminals/launch';
import { OutputCoalescer } from '../../src/terminals/outputCoalescer';
import { OutputBuffer, incompleteTail } from '../../src/terminals/outputBuffer';
import { TerminalDisplays, type TerminalDisplayEvent } from '../../src/terminals/terminalDisplays';

/** Feeds `bytes` to a buffer in slices of the given sizes, cycling. */
function feed(buffer: OutputBuffer, bytes: Buffer, sizes: number[]): void {
  let offset = 0;
  for (let i = 0; offset < bytes.length; i++) {
    const size = sizes[i % sizes.length] as number;
    buffer.append(bytes.subarray(offset, offset + size));
    offset += size;
  }
}

describe('OutputBuffer', () => {
  test('keeps everything under the limit, exactly', () => {
    const buffer = new OutputBuffer(100);
    buffer.append(Buffer.from('héllo '));
    buffer.append(Buffer.from('wörld'));
    assert.equal(buffer.text(true), 'héllo wörld');
    assert.equal(buffer.truncated, false);
  });

  test('drops from the beginning at a character boundary, never splitting a UTF-8 sequence', () => {
    const text = Array.from({ length: 2000 }, (_, i) => ['€', '😀', 'é', 'a'][i % 4]).join('') + 'END';
    const bytes = Buffer.from(text);
    for (const sizes of [[1], [2, 3], [7], [4096], [1023, 1, 5]]) {
      const buffer = new OutputBuffer(1024);
      feed(buffer, bytes, sizes);
      const kept = buffer.text(true);
      assert.ok(buffer.truncated, `truncated (${sizes})`);
      assert.ok(Buffer.byteLength(kept) <= 1024 && Buffer.byteLength(kept) >= 1021, `about 1 KB kept (${Buffer.byteLength(kept)})`);
      assert.ok(!kept.includes('\uFFFD'), `no broken character (${sizes})`);
      assert.ok(text.endsWith(kept), `the newest output is kept (${sizes})`);
    }
  });

  test('holds back a character whose bytes have not all arrived, until the end', () => {
    const buffer = new OutputBuffer(64);
    const euro = Buffer.from('a€');
    buffer.append(euro.subarray(0, 2));
    assert.equal(buffer.text(false), 'a');
    buffer.append(euro.subarray(2));
    assert.equal(buffer.text(false), 'a€');
    assert.equal(incompleteTail(Buffer.from('😀').subarray(0, 3)), 3);
    assert.equal(incompleteTail(Buffer.from('x😀')), 0);
  });

  test('a limit of zero keeps nothing and says so', () => {
    const buffer = new OutputBuffer(0);
    buffer.append(Buffer.from('anything'));
    assert.equal(buffer.text(true), '');
    assert.equal(buffer.truncated, true);
  });

  test('memory stays bounded by the limit whatever is appended', () => {
    const buffer = new OutputBuffer(64 * 1024);
    const chunk = Buffer.alloc(3000, 'x');
    for (let i = 0; i < 20_000; i++) buffer.append(chunk);
    assert.equal(buffer.byteLength, 64 * 1024);
    assert.equal(buffer.dropped, 20_000 * 3000 - 64 * 1024);
  });
});

describe('launching commands', () => {
  test('a command with arguments runs directly; a bare command line goes through a POSIX shell', () => {
    assert.deepEqual(planLaunch({ command: 'git', args: ['log', '--oneline'] }, '/bin/zsh', 'linux'), { file: 'git', args: ['log', '--oneline'], viaShell: false });
    assert.deepEqual(planLaunch({ command: 'ls', args: [] }, '/bin/zsh', 'linux'), { file: 'ls', args: [], viaShell: false });
    assert.deepEqual(planLaunch({ command: 'ls -la | head', args: [] }, '/usr/bin/zsh', 'linux'), { file: '/usr/bin/zsh', args: ['-c', 'ls -la | head'], viaShell: true });
    assert.deepEqual(planLaunch({ command: 'echo $HOME', args: [] }, '/usr/bin/fish', 'linux'), { file: '/bin/sh', args: ['-c', 'echo $HOME'], viaShell: true });
  });

  test('the environment keeps colours, disables pagers and prompts, and ends with the agent env', () => {
    const env = commandEnvironment({ PATH: '/bin', PAGER: 'less', HOME: '/home/u' }, [{ name: 'PAGER', value: 'more' }, { name: 'X', value: '1' }]);
    assert.equal(env.PATH, '/bin');
    assert.equal(env.HOME, '/home/u');
    assert.equal(env.GIT_PAGER, 'cat');
    assert.equal(env.TERM, 'xterm-256color');
    assert.equal(env.FORCE_COLOR, '1');
    assert.equal(env.GIT_TERMINAL_PROMPT, '0');
    assert.equal(env.PAGER, 'more', 'the agent has the last word');
    assert.equal(env.X, '1');
    assert.equal(commandEnvironment({ NO_COLOR: '1' }, []).FORCE_COLOR, undefined, "the user's NO_COLOR is respected");
    const fromEditor = commandEnvironment({ ELECTRON_RUN_AS_NODE: '1', VSCODE_IPC_HOOK: '/x', VSCODE_PORTABLE: '/p', PATH: '/bin' }, []);
    assert.deepEqual([fromEditor.ELECTRON_RUN_AS_NODE, fromEditor.VSCODE_IPC_HOOK, fromEditor.VSCODE_PORTABLE], [undefined, undefined, '/p'], "the editor's internals stay out");
  });

  test('the displayed command quotes what needs quoting', () => {
    assert.equal(displayCommand({ command: 'grep', args: ['-r', 'two words', "it's"] }), `grep -r 'two words' 'it'\\''s'`);
  });
});

describe('TerminalDisplays', () => {
  function collect(displays: TerminalDisplays): TerminalDisplayEvent[] {
    const events: TerminalDisplayEvent[] = [];
    displays.onEvent((event) => events.push(event));
    return events;
  }

  test('renders display terminals from tool-call _meta, as Claude Code sends them', () => {
    let now = 1000;
    const displays = new TerminalDisplays(() => now);
    const events = collect(displays);
    const updates: acp.SessionUpdate[] = [
      { sessionUpdate: 'tool_call', toolCallId: 'toolu_1', title: 'Terminal', kind: 'execute', status: 'pending', rawInput: {}, content: [{ type: 'terminal', terminalId: 'toolu_1' }], _meta: { terminal_info: { terminal_id: 'toolu_1', cwd: '/work' } } },
      { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_1', title: 'ls --color', rawInput: { command: 'ls --color', description: 'List' } },
      { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_1', _meta: { terminal_output: { terminal_id: 'toolu_1', data: '\u001b[34mdir\u001b[0m\n' } } },
      { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_1', _meta: { terminal_output_delta: { terminal_id: 'toolu_1', data: 'file\n' } } },
      { sessionUpdate: 'tool_call_update', toolCallId: 'toolu_1', status: 'completed', _meta: { terminal_exit: { terminal_id: 'toolu_1', exit_code: 2, signal: null } } },
    ];
    for (const update of updates) {
      displays.observe(update);
      now += 100;
    }
    const view = displays.view('toolu_1');
    assert.deepEqual(view, {
      terminalId: 'toolu_1', toolCallId: 'toolu_1', origin: 'agent', command: 'ls --color', cwd: '/work', running: false,
      elapsedMs: 400, exitCode: 2, signal: null, truncated: false, released: false,
    });
    assert.equal(displays.output('toolu_1'), '\u001b[34mdir\u001b[0m\nfile\n');
    assert.deepEqual(events.filter((event) => event.type === 'output').map((event) => event.type === 'output' && event.data), ['\u001b[34mdir\u001b[0m\n', 'file\n']);
    assert.equal(displays.stop('toolu_1'), false, 'Tandem cannot stop what the agent runs');
  });

  test('a stopped turn ends the agent terminals that never reported an exit', () => {
    const displays = new TerminalDisplays();
    displays.observe({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'sleep 9', _meta: { terminal_info: { terminal_id: 't' } } });
    assert.equal(displays.view('t')?.running, true);
    displays.endAgentTerminals();
    assert.equal(displays.view('t')?.running, false);
  });

  test('client terminals stop through their own callback and keep their output after release', () => {
    const displays = new TerminalDisplays();
    let stopped = 0;
    displays.open({ terminalId: 'c1', origin: 'client', command: 'make', cwd: '/w', toolCallId: null, stop: () => stopped++ });
    displays.append('c1', 'building\n');
    displays.observe({ sessionUpdate: 'tool_call', toolCallId: 'call-9', title: 'make', content: [{ type: 'terminal', terminalId: 'c1' }] });
    assert.equal(displays.view('c1')?.toolCallId, 'call-9');
    displays.stopAll();
    assert.equal(stopped, 1);
    displays.exit('c1', { exitCode: null, signal: 'SIGTERM' }, true);
    displays.release('c1');
    assert.equal(displays.stop('c1'), false);
    const [snapshot] = displays.snapshot();
    assert.equal(snapshot?.output, 'building\n');
    assert.equal(snapshot?.signal, 'SIGTERM');
    assert.equal(snapshot?.truncated, true);
    assert.equal(snapshot?.released, true);
  });

  test('display text and per-flush output are bounded and start on a line', () => {
    const text = new BoundedText(1000);
    for (let i = 0; i < 500; i++) text.append(`line ${i}\n`);
    const kept = text.text();
    assert.ok(kept.length <= 1000);
    assert.match(kept, /^line \d+\n/);
    assert.ok(kept.endsWith('line 499\n'));
    const coalescer = new OutputCoalescer(100);
    for (let i = 0; i < 1000; i++) coalescer.push('t', `row ${i}\n`);
    const [chunk] = coalescer.take();
    assert.ok(chunk && chunk.data.length <= 100 && chunk.skipped > 0);
    assert.ok(chunk.data.endsWith('row 999\n'));
    assert.ok(coalescer.isEmpty);
  });
});

describe('advertised capabilities', () => {
  test('terminal, display terminals and terminal sign-in are advertised only when offered', () => {
    assert.deepEqual(clientCapabilities({ fs: false, terminals: false }), { fs: { readTextFile: false, writeTextFile: false }, terminal: false });
    assert.deepEqual(clientCapabilities({ fs: false, terminals: true, terminalOutput: true, terminalAuth: true }), {
      fs: { readTextFile: false, writeTextFile: false },
      terminal: true,
      auth: { terminal: true },
      _meta: { terminal_output: true, 'terminal-auth': true },
    });
  });
});
