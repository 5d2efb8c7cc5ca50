import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatCost, usageDescription, usageLabel } from '../../src/contract/usageText';

describe('usage in words', () => {
  test('a context window: percent, used of size, and the cost in its currency', () => {
    const usage = { kind: 'context', used: 172_000, size: 200_000, percent: 86, level: 'warning', cost: { amount: 0.042, currency: 'USD' } } as const;
    assert.equal(usageLabel(usage), '86%');
    assert.equal(usageDescription(usage), 'Context window: 172,000 of 200,000 tokens used (86%). Cost so far: $0.042.');
  });

  test('a turn without a window: compact tokens, summed when the agent gives no total', () => {
    assert.equal(usageLabel({ kind: 'turn', inputTokens: 137, outputTokens: 6, totalTokens: 143 }), '143 tokens last turn');
    assert.equal(usageLabel({ kind: 'turn', inputTokens: 12_000, outputTokens: 345, totalTokens: null }), '12.3K tokens last turn');
    assert.match(usageDescription({ kind: 'turn', inputTokens: 137, outputTokens: null, totalTokens: 143 }), /^Last turn: 137 in, 143 total tokens\. .*no percentage\.$/);
  });

  test('a currency Intl does not know is shown as the agent named it', () => {
    assert.equal(formatCost({ amount: 1, currency: 'XXXX<script>' }), '1 XXXX<script>');
  });
});
