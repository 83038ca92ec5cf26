/** The `p`th percentile (0-100) of samples sorted ascending: the sample at rank floor(p% of n), the last at most. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
