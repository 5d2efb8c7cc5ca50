/** Order statistics for benchmark samples; every function copies before sorting. */

export interface Summary {
  runs: number;
  median: number;
  min: number;
  max: number;
  p25: number;
  p75: number;
}

/** Linear-interpolated percentile (p in 0..100) of a non-empty sample. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error('percentile of an empty sample');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const lowValue = sorted[low] ?? 0;
  const highValue = sorted[high] ?? lowValue;
  return lowValue + (highValue - lowValue) * (rank - low);
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export function summarize(samples: readonly number[]): Summary {
  return {
    runs: samples.length,
    median: median(samples),
    min: Math.min(...samples),
    max: Math.max(...samples),
    p25: percentile(samples, 25),
    p75: percentile(samples, 75),
  };
}

/** Rounds for display and for the JSON line (keeps the JSON readable). */
export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
