import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { sha256 } from '../support/hashes';
import { startClaudeModelServer } from '../support/model-servers/claude';
import { startGeminiModelServer } from '../support/model-servers/gemini';
import { claudeAgentSpec, geminiAgentSpec } from '../support/real-agents';
import { reviewedRealAgentSession, startScriptedRealAgent } from '../support/realAgentRun';
import { allowingPermissions } from '../support/reviewHarness';

const TEN_LINES = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('real Gemini CLI through Tandem\'s editor-backed fs/*', () => {
  test('reads unsaved buffer text, creates a file, edits one; hunks undo one region only', async (t) => {
    const agent = await startScriptedRealAgent(startGeminiModelServer, geminiAgentSpec);
    const { model, spec } = agent;
    const workspace = spec.cwd;
    const { session, documents, ledger, frames, writer } = reviewedRealAgentSession(t, agent);
    mkdirSync(join(workspace, 'src'));
    const app = join(workspace, 'src', 'app.ts');
    writeFileSync(app, 'export const greeting = "saved";\n');
    // The user typed this in the editor and has not saved it.
    documents.open.set(app, 'export const greeting = "saved";\n// UNSAVED MARKER\n');

    model.enqueue(
      { toolUses: [{ name: 'replace', input: { file_path: app, instruction: 'Rename the marker', old_string: '// UNSAVED MARKER', new_string: '// EDITED BY GEMINI' } }] },
      { text: 'Replaced.' },
    );
    await allowingPermissions(session, session.prompt('Rename the marker'));
    assert.equal(documents.open.get(app), 'export const greeting = "saved";\n// EDITED BY GEMINI\n', 'the edit was made on the unsaved text');
    assert.ok(frames.frames().some((frame) => frame.direction === 'in' && frame.text.includes('"fs/read_text_file"')));

    const created = join(workspace, 'notes', 'todo.md');
    model.enqueue({ toolUses: [{ name: 'write_file', input: { file_path: created, content: '# Todo\n\n- review hunks\n' } }] }, { text: 'Created.' });
    await allowingPermissions(session, session.prompt('Create a todo file'));
    assert.equal(readFileSync(created, 'utf8'), '# Todo\n\n- review hunks\n');
    assert.equal(ledger.file(created)?.status, 'created');
    assert.equal(ledger.file(created)?.origin, 'editor');

    const multi = join(workspace, 'src', 'multi.txt');
    writeFileSync(multi, TEN_LINES);
    const edited = TEN_LINES.replace('line 2\n', 'line two\n').replace('line 9\n', 'line nine\n');
    model.enqueue({ toolUses: [{ name: 'write_file', input: { file_path: multi, content: edited } }] }, { text: 'Edited.' });
    await allowingPermissions(session, session.prompt('Spell out two numbers'));
    assert.equal(readFileSync(multi, 'utf8'), edited);
    const file = ledger.file(multi);
    assert.equal(file?.hunks.length, 2);
    const second = file?.hunks.find((hunk) => hunk.added.includes('line nine'));
    assert.ok(file && second);
    assert.deepEqual(await writer.undo([ledger.undoHunk(multi, second.id)]), []);
    assert.equal(readFileSync(multi, 'utf8'), TEN_LINES.replace('line 2\n', 'line two\n'), 'only the undone region changed back');
  });
});

describe('real Claude Code, which writes the disk itself', () => {
  test('a Write and an Edit become hunks "written to disk by the agent"; undo-all restores the bytes', async (t) => {
    const agent = await startScriptedRealAgent(startClaudeModelServer, claudeAgentSpec);
    const { model, spec } = agent;
    const workspace = spec.cwd;
    const { session, ledger, frames, writer } = reviewedRealAgentSession(t, agent);
    const existing = join(workspace, 'existing.txt');
    const original = Buffer.from('\uFEFFkeep me\r\nchange me\r\nend');
    writeFileSync(existing, original);
    const created = join(workspace, 'created.md');
    const mixed = join(workspace, 'mixed.txt');
    const mixedBytes = Buffer.from('keep\r\nmixed\nlone\rcafé 🙂\r\nend');
    writeFileSync(mixed, mixedBytes);

    model.enqueue(
      { toolUses: [{ name: 'Write', input: { file_path: created, content: 'brand new\n' } }] },
      { toolUses: [{ name: 'Edit', input: { file_path: existing, old_string: 'change me', new_string: 'changed by claude' } }] },
      { toolUses: [{ name: 'Edit', input: { file_path: mixed, old_string: 'mixed', new_string: 'MIXED 👩‍💻' } }] },
      { text: 'Done.' },
    );
    await allowingPermissions(session, session.prompt('Make two changes'));
    assert.equal(readFileSync(created, 'utf8'), 'brand new\n');
    assert.ok(readFileSync(existing, 'utf8').includes('changed by claude'));
    assert.ok(!frames.frames().some((frame) => frame.text.includes('"fs/write_text_file"')), 'Claude never asked Tandem to write');

    assert.equal(ledger.file(created)?.origin, 'disk');
    assert.equal(ledger.file(created)?.status, 'created');
    assert.equal(ledger.file(existing)?.origin, 'disk');
    assert.equal(ledger.file(existing)?.hunks.length, 1);
    assert.ok(ledger.file(existing)?.toolCallIds.length === 1);

    assert.ok(readFileSync(mixed, 'utf8').includes('MIXED 👩‍💻'));
    assert.equal(ledger.file(mixed)?.origin, 'disk');

    // Tandem's own undo path: the ledger's writes through the product's review writer.
    assert.deepEqual(await writer.undo(ledger.undoAll()), []);
    assert.deepEqual(readFileSync(existing), original, 'byte-identical: BOM, CRLF, no final newline');
    assert.equal(sha256(readFileSync(mixed)), sha256(mixedBytes), 'byte-identical: mixed CRLF/LF, a lone CR, emoji, no final newline');
    assert.equal(existsSync(created), false, 'the created file is gone');
  });
});
