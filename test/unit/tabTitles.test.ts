import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { distinctTitles } from '../../src/panel/tabTitles';
import { scriptedPresenter } from '../support/sessionBuilders';

describe('tab titles', () => {
  test('a repeated title is numbered in tab order, the first keeps it', () => {
    assert.deepEqual(distinctTitles(['/tour', 'fix the build', '/tour', '/tour']), ['/tour', 'fix the build', '/tour (2)', '/tour (3)']);
  });

  test('a number another tab already holds is skipped, so no two titles are the same', () => {
    const titles = distinctTitles(['/tour', '/tour (2)', '/tour', 'New conversation', 'New conversation']);
    assert.deepEqual(titles, ['/tour', '/tour (2)', '/tour (3)', 'New conversation', 'New conversation (2)']);
    assert.equal(new Set(titles).size, titles.length);
  });

  test('distinct titles stay as they are', () => {
    assert.deepEqual(distinctTitles(['a', 'b', 'c']), ['a', 'b', 'c']);
  });

  test('the tab strip of three conversations that began with the same words shows three different titles', async (t) => {
    const { presenter, posted } = scriptedPresenter(t);
    await presenter.handle({ type: 'ready' });
    for (let tab = 0; tab < 3; tab++) {
      if (tab > 0) await presenter.newSession();
      await presenter.sendPrompt('echo tour');
    }
    const strip = posted.filter((message) => message.type === 'tabsChanged').at(-1);
    assert.ok(strip?.type === 'tabsChanged');
    assert.deepEqual(strip.tabs.tabs.map((tab) => tab.title), ['echo tour', 'echo tour (2)', 'echo tour (3)']);
  });
});
