import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as acp from '@agentclientprotocol/sdk';
import { streamText, update } from '../../../src/demo-agent/agentKit';
import type { Scenario } from './scenario';

let nextDiskEdit = 1;
/** Longer than the client's grace for a cancelled turn (5 s in Tandem). */
const STUBBORN_MS = 5_500;

/**
 * Writes `text` and a newline to `name` (in the session's folder) on disk itself, as Claude Code
 * and Codex do, inside an edit tool call that names the file first and ends with a whole-file
 * diff, as Gemini CLI sends them.
 */
async function editOnDisk(client: acp.AgentContext, sessionId: string, cwd: string, name: string, text: string): Promise<void> {
  const path = join(cwd, name);
  const oldText = existsSync(path) ? readFileSync(path, 'utf8') : null;
  const newText = `${text}\n`;
  const toolCallId = `disk-edit-${nextDiskEdit++}`;
  await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: `Write ${name}`, kind: 'edit', status: 'in_progress', locations: [{ path }] });
  writeFileSync(path, newText);
  await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [{ type: 'diff', path, oldText, newText }] });
}

/** Scenarios that exercise the client's fs/* (the scripted agent is the only one that benchmarks it), or write the disk past it. */
export const fsScenarios: Record<string, Scenario> = {
  /** `fs-read-bench <path> <runs>`: times fs/read_text_file round trips and replies with the milliseconds as JSON. */
  async 'fs-read-bench'(client, sessionId, rest) {
    const [path = '', runs = '5'] = rest.split(' ');
    const times: number[] = [];
    let length = 0;
    for (let i = 0; i < Number(runs); i++) {
      const started = performance.now();
      const response = await client.request(acp.methods.client.fs.readTextFile, { sessionId, path });
      times.push(performance.now() - started);
      length = response.content.length;
    }
    await streamText(client, sessionId, JSON.stringify({ times, length }), { chunkSize: 100_000 });
    return 'end_turn';
  },
  /** `disk-edit <file> <text…>`: `editOnDisk`. */
  async 'disk-edit'(client, sessionId, rest, _signal, session) {
    const [name = 'notes.txt', ...words] = rest.split(' ');
    await editOnDisk(client, sessionId, session.cwd, name, words.join(' '));
    await streamText(client, sessionId, `Wrote ${name}.`);
    return 'end_turn';
  },
  /** `disk-delete <file>`: removes the file on disk itself inside a delete tool call that names it first (ACP has no delete request). */
  async 'disk-delete'(client, sessionId, rest, _signal, session) {
    const name = rest.trim() || 'notes.txt';
    const path = join(session.cwd, name);
    const oldText = readFileSync(path, 'utf8');
    const toolCallId = `disk-delete-${nextDiskEdit++}`;
    await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: `Delete ${name}`, kind: 'delete', status: 'in_progress', locations: [{ path }], content: [{ type: 'diff', path, oldText, newText: '' }] });
    rmSync(path);
    await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
    await streamText(client, sessionId, `Deleted ${name}.`);
    return 'end_turn';
  },
  /**
   * `stubborn <file> <text…>`: ignores Stop. Once cancelled, and after `STUBBORN_MS` (past the
   * client's wait for the turn to end), it makes one more edit on disk (`editOnDisk`), then answers.
   */
  async stubborn(client, sessionId, rest, signal, session) {
    const [name = 'notes.txt', ...words] = rest.split(' ');
    if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    await new Promise((resolve) => setTimeout(resolve, STUBBORN_MS));
    await editOnDisk(client, sessionId, session.cwd, name, words.join(' '));
    return 'cancelled';
  },
};
