import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { FsSessionContext } from '../../src/workspace/sessionContext';
import { exactText } from '../../src/files/textContent';
import { silentLogger } from '../../src/util/logger';
import { reviewedFiles } from '../support/reviewHarness';
import { tempWorkspace } from '../support/sessionBuilders';

/** 9,000 bytes of ASCII, then bytes that are not UTF-8 (Latin-1 "é" and a stray 0xFF). */
const LATE_INVALID = Buffer.concat([Buffer.alloc(9000, 'a'), Buffer.from([0xe9, 0x0a, 0xff, 0x0a])]);

describe('text content', () => {
  test('invalid UTF-8 anywhere, not only in the first 8 KB, is not text; nothing decodes to U+FFFD', () => {
    assert.equal(exactText(LATE_INVALID), null);
    // A multi-byte character across the 8 KB mark is fine.
    const across = Buffer.concat([Buffer.alloc(8191, 'a'), Buffer.from('é日本\n')]);
    assert.equal(exactText(across), across.toString('utf8'));
  });

  test('a BOM is kept as U+FEFF; UTF-16 (either BOM) and NUL bytes in the head are not text', () => {
    assert.equal(exactText(Buffer.from('\uFEFFx\r\n')), '\uFEFFx\r\n');
    assert.equal(exactText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi\n', 'utf16le')])), null);
    assert.equal(exactText(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('hi\n', 'utf16le').swap16()])), null);
    assert.equal(exactText(Buffer.from([0x61, 0x00, 0x62])), null);
  });

  test('fs/read_text_file refuses a file with invalid UTF-8 after 8 KB instead of serving U+FFFD', async (t) => {
    const workspace = tempWorkspace(t, 'tandem-text-');
    const path = join(workspace, 'latin1.txt');
    writeFileSync(path, LATE_INVALID);
    const session: FsSessionContext = {
      key: 's', cwd: workspace, logger: silentLogger, agentInfo: () => null,
      thread: { findLastToolCall: () => undefined, addNotice: () => undefined },
      onUpdate: () => ({ dispose: () => undefined }),
      onPermissionRequest: () => ({ dispose: () => undefined }),
    };
    const fs = reviewedFiles(workspace).createFs(session);
    await assert.rejects(fs.readTextFile({ sessionId: 's', path }, new AbortController().signal), /binary|not text|UTF-8/);
    fs.dispose();
  });
});
