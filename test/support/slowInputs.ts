/**
 * Inputs built to be slow: the unit tests prove what comes out of them, bench/hostileInputs
 * prints how long they take (never a pass/fail on time).
 */

/** Texts that make a backtracking credential matcher take quadratic time or worse. */
export const HOSTILE_SECRET_TEXTS: readonly { name: string; text: string }[] = [
  { name: 'assignments', text: 'a='.repeat(200_000) },
  { name: 'colons', text: 'x:'.repeat(200_000) },
  { name: 'queryPairs', text: '?a=?a='.repeat(60_000) },
  { name: 'endLines', text: '-----END PRIVATE KEY-----\n'.repeat(15_000) },
  { name: 'flags', text: '-a \'b '.repeat(60_000) },
  { name: 'snakeAssignments', text: 'a_b='.repeat(100_000) },
  { name: 'jsonKeys', text: '"a":'.repeat(100_000) },
];

const numbered = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix} ${i}\n`);

/** Line arrays whose diff is the worst case: every line rewritten, and a file of a few repeated lines. */
export function diffWorstCases(): { name: string; from: string[]; to: string[] }[] {
  const repetitive = Array.from({ length: 20_000 }, (_, i) => (i % 3 ? '}\n' : '\n'));
  return [
    { name: 'rewrite20k', from: numbered(20_000, 'line'), to: numbered(20_000, 'other') },
    { name: 'repetitive20k', from: repetitive, to: repetitive.map((line, i) => (i % 97 === 5 ? 'x\n' : line)) },
  ];
}

/** An agent's edit that replaces every line of a 5,000-line file. */
export function longFileRewrite(): { path: string; oldText: string; newText: string } {
  return { path: 'big.txt', oldText: numbered(5000, 'old').join(''), newText: numbered(5000, 'new').join('') };
}
