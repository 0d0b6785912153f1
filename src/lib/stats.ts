import { errorFunction } from 'simple-statistics';

/**
 * The statistics of the console's lander experiments (issue 23): each conversion with its 95%
 * confidence interval, and whether a variant's differs from the control's by chance.
 */

/** The normal quantile of 0.975: a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

/**
 * Wilson's score interval of a proportion (Wilson 1927; Newcombe 1998, method 3): unlike the
 * normal approximation it stays within [0, 1] and holds for small counts and for 0 or all
 * successes. Null without trials.
 */
export function wilsonInterval(successes: number, trials: number, z = Z_95): { low: number; high: number } | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = z * z;
  const centre = p + z2 / (2 * trials);
  const spread = z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  const denominator = 1 + z2 / trials;
  return { low: Math.max(0, (centre - spread) / denominator), high: Math.min(1, (centre + spread) / denominator) };
}

/**
 * The two-proportion z-test with a pooled proportion (two-sided): z and its p-value. Null when a
 * side has no trials or the pooled proportion is 0 or 1 (no variance: nothing to tell apart).
 */
export function twoProportionTest(x1: number, n1: number, x2: number, n2: number): { z: number; p: number } | null {
  if (n1 <= 0 || n2 <= 0) return null;
  const pooled = (x1 + x2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  if (se === 0) return null;
  const z = (x2 / n2 - x1 / n1) / se;
  // The approximation of erf is good to 1.2e-7 either way: kept within [0, 1].
  return { z, p: Math.min(1, Math.max(0, 1 - errorFunction(Math.abs(z) / Math.SQRT2))) };
}

/** The significance level the console names: a difference with p below it is called significant. */
export const SIGNIFICANCE = 0.05;
