import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as acp from '@agentclientprotocol/sdk';
import { streamText, update } from '../../../src/demo-agent/agentKit';
import type { Scenario } from './scenario';

let nextDiskEdit = 1;

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
  /**
   * `disk-edit <file> <text…>`: writes `<text>` and a newline to `<file>` (in the session's folder)
   * on disk itself, as Claude Code and Codex do, inside an edit tool call that names the file
   * first and ends with a whole-file diff, as Gemini CLI sends them.
   */
  async 'disk-edit'(client, sessionId, rest, _signal, session) {
    const [name = 'notes.txt', ...words] = rest.split(' ');
    const path = join(session.cwd, name);
    const oldText = existsSync(path) ? readFileSync(path, 'utf8') : null;
    const newText = `${words.join(' ')}\n`;
    const toolCallId = `disk-edit-${nextDiskEdit++}`;
    await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: `Write ${name}`, kind: 'edit', status: 'in_progress', locations: [{ path }] });
    writeFileSync(path, newText);
    await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [{ type: 'diff', path, oldText, newText }] });
    await streamText(client, sessionId, `Wrote ${name}.`);
    return 'end_turn';
  },
};
