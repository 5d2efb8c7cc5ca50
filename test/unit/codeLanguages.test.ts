import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import core from 'highlight.js/lib/core';
import { highlightCode, LAZY_LANGUAGES } from '../../webview/codeLanguages';

/** The chunk a lazy language is in: its definition, loaded as the panel loads it. */
async function definition(name: string): Promise<{ aliases?: string[] }> {
  const lazy = LAZY_LANGUAGES[name];
  assert.ok(lazy, `${name} is lazy`);
  return (await lazy.load()).default(core);
}

/** highlight.js's common set, as the panel had it in one bundle; asked in a process of its own, since it registers into the same core. */
function commonLanguages(): string[] {
  const script = "process.stdout.write(JSON.stringify(require('highlight.js/lib/common').listLanguages()))";
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as string[];
}

describe('code block languages', () => {
  test('every language of highlight.js\'s common set is still there: in the bundle or loaded on demand', () => {
    const eager = core.listLanguages();
    const lazy = Object.keys(LAZY_LANGUAGES);
    assert.deepEqual(eager.filter((name) => lazy.includes(name)), [], 'no language is both');
    assert.deepEqual([...eager, ...lazy].sort(), commonLanguages().sort());
    assert.ok(eager.length <= 12, `a small set in the panel's bundle (${eager.join(', ')})`);
  });

  test('the aliases known before a lazy language loads are the ones its definition gives', async () => {
    for (const name of Object.keys(LAZY_LANGUAGES)) {
      assert.deepEqual([...(LAZY_LANGUAGES[name]?.aliases ?? [])], (await definition(name)).aliases ?? [], name);
    }
  });

  test('a block in a lazy language is plain until its language arrives, then highlighted; by an alias too', async () => {
    const code = 'fn main() { let answer = 42; }';
    let arrivals = 0;
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    const onArrival = () => {
      arrivals += 1;
      arrived();
    };
    assert.equal(highlightCode(code, 'rs', onArrival), 'loading');
    assert.equal(highlightCode(code, 'rust', onArrival), 'loading', 'a second block waits for the same load');
    await arrival;
    assert.equal(arrivals, 1, 'one load, one arrival');
    const highlighted = highlightCode(code, 'rs', onArrival);
    assert.ok(typeof highlighted === 'object', 'highlighted once it arrived');
    assert.match(highlighted.html, /<span class="hljs-keyword">fn<\/span>/);
    assert.match(highlighted.html, /<span class="hljs-number">42<\/span>/);
  });

  test('an eager language highlights at once, and one highlight.js lacks stays plain', () => {
    const highlighted = highlightCode('const a = 1;', 'ts', () => assert.fail('nothing to load'));
    assert.ok(typeof highlighted === 'object');
    assert.match(highlighted.html, /<span class="hljs-keyword">const<\/span>/);
    assert.equal(highlightCode('x', 'no-such-language', () => assert.fail('nothing to load')), 'unknown');
  });
});
