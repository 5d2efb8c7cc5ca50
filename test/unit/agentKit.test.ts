// What the shipped demo agent (and the test agents built on its kit) reads from a prompt.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { promptText } from '../../src/demo-agent/agentKit';
import { editorNote } from '../../src/review/editorNote';

describe('promptText', () => {
  test("a note in its own block after the user's text never joins the user's last word", () => {
    const note = editorNote('the user undid some of your changes.');
    const text = promptText([{ type: 'text', text: 'write-batch /tmp/batch-1.json' }, { type: 'text', text: note }]);
    assert.equal(/write-batch (\S+)/.exec(text)?.[1], '/tmp/batch-1.json');
    assert.equal(text, `write-batch /tmp/batch-1.json\n${note}`);
  });

  test('blocks that are not text are left out, and the ends are trimmed', () => {
    const text = promptText([
      { type: 'text', text: '  /form ' },
      { type: 'resource_link', uri: 'file:///a.ts', name: 'a.ts' },
      { type: 'text', text: 'second\n' },
    ]);
    assert.equal(text, '/form \nsecond');
  });
});
