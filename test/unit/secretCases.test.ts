import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { secretCases } from '../support/secretCases';
import { LOOK_ALIKES, SECRET_FORMATS } from '../support/secretFormats';

const cases = secretCases();

describe('secrets in every output: each format in each position', () => {
  test('the corpus covers every format in every position, and then some', () => {
    assert.ok(SECRET_FORMATS.length >= 40, `${SECRET_FORMATS.length} formats`);
    assert.ok(LOOK_ALIKES.length >= 15, `${LOOK_ALIKES.length} look-alikes`);
    assert.ok(cases.filter((each) => !each.name.startsWith('look-alike')).length >= 300, `${cases.length} cases`);
    assert.equal(new Set(cases.map((each) => each.name)).size, cases.length, 'case names are unique');
  });

  for (const each of cases) {
    test(each.name, () => {
      assert.equal(each.run(), undefined);
    });
  }
});
