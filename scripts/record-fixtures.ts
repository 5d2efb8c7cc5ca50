// Re-records the replay fixtures of test/fixtures/recordings from real agent sessions: the real
// Claude adapter and the real Gemini CLI, each driven by a scripted model server on 127.0.0.1,
// through Tandem's own SessionController, saved as "Save Recording" saves them (redacted).
// Run under the heavy lock: flock /tmp/tandem-heavy.lock node --import tsx scripts/record-fixtures.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { conversationFrames } from '../src/inspector/conversationFrames';
import { buildFrameIndex } from '../src/inspector/frameIndex';
import { recordingHeader, writeRecording } from '../src/inspector/recording';
import { storeRedaction } from '../src/redaction/slicedRedaction';
import { startClaudeModelServer, type ModelTurn, type ScriptedModelServer } from '../test/support/model-servers/claude';
import { startGeminiModelServer } from '../test/support/model-servers/gemini';
import { claudeAgentSpec, geminiAgentSpec, REPO_ROOT, type AgentSpec } from '../test/support/real-agents';
import { definitionFromSpec } from '../test/support/realAgentDefinitions';
import { allowingPermissions, reviewedSession } from '../test/support/reviewHarness';

const OUT = join(REPO_ROOT, 'test', 'fixtures', 'recordings');

/** One real session: the workspace prepared, one prompt with every permission allowed once, the conversation saved as a recording. */
async function record(file: string, model: ScriptedModelServer, spec: AgentSpec, prepare: (workspace: string) => { prompt: string; turns: ModelTurn[] }): Promise<void> {
  const { session, frames } = reviewedSession({ ...definitionFromSpec(spec), defaultMode: spec.name === 'claude' ? 'default' : null }, spec.cwd);
  try {
    const { prompt, turns } = prepare(spec.cwd);
    model.enqueue(...turns);
    await allowingPermissions(session, session.prompt(prompt));
    const all = frames.frames();
    const own = conversationFrames(all, buildFrameIndex(all), new Set([session.currentSessionId ?? '']));
    const text = await writeRecording(recordingHeader(own, spec.cwd, new Date()), own, storeRedaction(frames));
    writeFileSync(join(OUT, file), text);
    console.log(`${file}: ${own.length} frames, ${session.thread.snapshot().length} thread entries`);
  } finally {
    await session.stopAgent();
    session.dispose();
    await model.close();
    spec.dispose();
  }
}

/** Both fixtures, one after the other (one agent at a time on a shared machine). */
async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const claude = await startClaudeModelServer();
  await record('claude-edit.ndjson', claude, claudeAgentSpec(claude.url), (workspace) => {
    const existing = join(workspace, 'existing.txt');
    writeFileSync(existing, 'keep me\nchange me\n');
    return {
      prompt: 'Create a file, edit one and run a command',
      turns: [
        { toolUses: [{ name: 'Write', input: { file_path: join(workspace, 'created.md'), content: 'brand new\n' } }] },
        { toolUses: [{ name: 'Edit', input: { file_path: existing, old_string: 'change me', new_string: 'changed by claude' } }] },
        { toolUses: [{ name: 'Bash', input: { command: 'node -e "console.log(6 * 7)"', description: 'Print a number' } }] },
        { text: 'All done.' },
      ],
    };
  });
  const gemini = await startGeminiModelServer();
  await record('gemini-edit.ndjson', gemini, geminiAgentSpec(gemini.url), (workspace) => {
    const existing = join(workspace, 'app.ts');
    writeFileSync(existing, 'export const greeting = "hello";\n');
    return {
      prompt: 'Read the app and write a todo file',
      turns: [
        { toolUses: [{ name: 'read_file', input: { file_path: existing } }] },
        { toolUses: [{ name: 'write_file', input: { file_path: join(workspace, 'todo.md'), content: '# Todo\n' } }] },
        { text: 'Read it and wrote the todo.' },
      ],
    };
  });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
