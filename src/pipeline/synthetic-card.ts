// Synthetic task cards for the SFT corpus. With 19 training tasks the policy can learn to recognise
// each card by its row and feature counts and recall that task's programs, instead of reading the
// words that decide the program (task type and metric); on a new card it then guesses (the first
// committed policy wrote a classifier for 39 of 48 held-out regression programs). Pairing programs
// with cards whose nuisance statistics are drawn at random, type and metric kept, leaves the type
// and metric as the only stable signal for which model class to write.

import { renderCard, type CardStats } from '../tasks/task-card.ts';
import type { MetricName, TaskType } from '../tasks/task-types.ts';
import type { Rng } from '../primitives/random.ts';
import { randomInt } from '../primitives/random.ts';

function logUniformInt(rng: Rng, lo: number, hi: number): number {
  return Math.round(Math.exp(Math.log(lo) + rng() * (Math.log(hi) - Math.log(lo))));
}

/** Random card statistics of the given type and metric, in the ranges the suite's tasks span. */
export function syntheticCardStats(type: TaskType, metric: MetricName, rng: Rng): CardStats {
  const nTrain = logUniformInt(rng, 80, 1200);
  const nTest = Math.min(600, Math.max(20, Math.round(nTrain * (0.3 + 0.5 * rng()))));
  const nFeatures = logUniformInt(rng, 3, 80);
  const nCategorical = rng() < 0.5 ? 0 : Math.min(nFeatures, 1 + randomInt(rng, Math.min(15, nFeatures)));
  const nNumeric = nFeatures - nCategorical;
  const missingRate = rng() < 0.5 ? 0 : rng() < 0.3 ? 0.005 * rng() : 0.2 * rng();
  const maxCardinality = nCategorical > 0 ? 2 + randomInt(rng, 40) : 0;
  const stats: CardStats = { type, metric, nTrain, nTest, nNumeric, nCategorical, missingRate, maxCardinality };
  if (type === 'regression') {
    stats.targetNonNegative = metric === 'rmsle' || rng() < 0.7; // RMSLE needs a non-negative target
    stats.targetInteger = rng() < 0.3;
    stats.targetSkew = (stats.targetNonNegative ? -0.5 : -2) + rng() * 6;
  } else {
    const k = type === 'binary' ? 2 : 3 + randomInt(rng, 8);
    const raw = Array.from({ length: k }, () => 0.05 + rng());
    const total = raw.reduce((a, b) => a + b, 0);
    stats.classShares = raw.map((r) => r / total);
    if (type === 'binary') stats.positiveRate = stats.classShares[0];
  }
  return stats;
}

export function syntheticCard(type: TaskType, metric: MetricName, rng: Rng): string {
  return renderCard(syntheticCardStats(type, metric, rng));
}
