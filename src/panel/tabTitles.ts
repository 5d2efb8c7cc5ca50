/**
 * Titles every open tab can be told apart by: the first of a repeated title keeps it, the later
 * ones get " (2)", " (3)"… in tab order, skipping any number another tab's title already holds.
 * Only what the strip shows changes: a transcript keeps the title as the agent or the user gave it.
 */
export function distinctTitles(titles: readonly string[]): string[] {
  const taken = new Set(titles);
  const seen = new Set<string>();
  return titles.map((title) => {
    if (!seen.has(title)) {
      seen.add(title);
      return title;
    }
    let number = 2;
    while (taken.has(`${title} (${number})`)) number++;
    const distinct = `${title} (${number})`;
    taken.add(distinct);
    return distinct;
  });
}
