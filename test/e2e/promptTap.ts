/**
 * Runs an agent (`node promptTap.ts <node arguments of the agent>`) between the client and it:
 * its stdin and stdout pass through unchanged, and every session/prompt it receives is appended,
 * exactly as it came over the wire, to the file TANDEM_PROMPT_LOG names (one JSON line each: the
 * session id and the prompt's content blocks), so a test can check what the agent was sent
 * without the agent being changed for it.
 */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

export interface TappedPrompt {
  sessionId: string;
  prompt: { type: string; text?: string }[];
}

function tap(log: string, line: string): void {
  if (line.trim() === '') return;
  const message = JSON.parse(line) as { method?: string; params?: TappedPrompt };
  if (message.method === 'session/prompt' && message.params) {
    appendFileSync(log, `${JSON.stringify({ sessionId: message.params.sessionId, prompt: message.params.prompt })}\n`);
  }
}

const log = process.env.TANDEM_PROMPT_LOG;
// Same process group: whatever stops the tap's group stops the agent too.
const agent = spawn(process.execPath, process.argv.slice(2), { stdio: ['pipe', 'inherit', 'inherit'] });
let partial = '';
process.stdin.on('data', (chunk: Buffer) => {
  agent.stdin.write(chunk);
  const lines = (partial + chunk.toString('utf8')).split('\n');
  partial = lines.pop() ?? '';
  if (log) for (const line of lines) tap(log, line);
});
process.stdin.on('end', () => agent.stdin.end());
agent.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
