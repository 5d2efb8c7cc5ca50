// Records the session/update notifications a real agent sends for a scripted turn, as JSON
// lines, for the thread model's replay tests. Re-run after upgrading a pinned agent:
//   node --import tsx test/support/recordAgentUpdates.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startClaudeModelServer } from './model-servers/claude';
import { claudeAgentSpec } from './real-agents';
import { RawNdjsonClient } from './raw-ndjson-client';
import { repoRoot } from './scriptedAgentSpec';

async function recordClaudeWrite(): Promise<void> {
  const server = await startClaudeModelServer();
  const spec = claudeAgentSpec(server.url);
  const updates: unknown[] = [];
  const client = RawNdjsonClient.spawn(spec, {
    onNotification: (method, params) => {
      if (method === 'session/update') updates.push((params as { update: unknown }).update);
    },
    onRequest: async () => ({ outcome: { outcome: 'cancelled' } }),
  });
  try {
    await client.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
    const session = (await client.request('session/new', { cwd: spec.cwd, mcpServers: [] })) as { sessionId: string };
    server.enqueue(
      { thinking: 'The user wants a notes file.', text: 'I will create the notes file.', toolUses: [{ name: 'Write', input: { file_path: join(spec.cwd, 'notes.md'), content: '# Notes\n\nFirst line.\n' } }] },
      { text: 'Created `notes.md`.' },
    );
    await client.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'Create notes.md' }] }, 60_000);
  } finally {
    await client.close();
    await server.close();
    spec.dispose();
  }
  // Paths and ids differ per run; keep them stable so the fixture diff shows real changes only.
  const text = updates.map((update) => JSON.stringify(update)).join('\n')
    .split(spec.cwd).join('/workspace');
  writeFileSync(join(repoRoot, 'test', 'fixtures', 'claude-write.updates.jsonl'), `${text}\n`);
  console.log(`recorded ${updates.length} updates`);
}

void recordClaudeWrite();
