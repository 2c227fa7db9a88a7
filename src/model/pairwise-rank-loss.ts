// The world model's pairwise objective ('pairwise'): the pointwise squared error on every row (so
// the score still learns validity and level: failures y = 0), plus a logistic ranking term over
// pairs of rows of the same group (task) that both ran:
//
//   L = (1/B) sum_b (s_b - y_b)^2  +  lambda * (1/P) sum_{(i, j) in pairs} softplus(-(z_i - z_j))
//
// with s = sigmoid(z), and pairs = {(i, j): group_i = group_j, both ran, y_i > y_j}, P their number
// (the term is 0 when a batch holds no pair). GRPO uses only the ranking inside a group, which is one
// task; the pointwise error never says which of two programs of one task is better when both sit
// near their task's mean, the ranking term says only that. The term is written on the logits: a
// difference of logits does not saturate where the sigmoid does.

/** Which rows of a batch may be compared, and how much the ranking term weighs. */
export interface WithinGroupRanking {
  /** per row, the group its ranking is within (the task) */
  groups: ArrayLike<string | number>;
  /** per row, whether the program ran (a failure enters no pair: its y = 0 says nothing about rank) */
  ran: ArrayLike<boolean>;
  /** lambda >= 0 */
  weight: number;
}

/** (better, worse) row pairs: same group, both ran, strictly ordered targets. */
export function rankPairs(targets: ArrayLike<number>, ranking: WithinGroupRanking): [number, number][] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < targets.length; i++) {
    if (!ranking.ran[i]) continue;
    for (let j = i + 1; j < targets.length; j++) {
      if (!ranking.ran[j] || ranking.groups[i] !== ranking.groups[j] || targets[i] === targets[j]) continue;
      pairs.push(targets[i] > targets[j] ? [i, j] : [j, i]);
    }
  }
  return pairs;
}

/** log(1 + e^x) without overflow. */
export function softplus(x: number): number {
  return Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x)));
}

/** 1 / (1 + e^-x) without overflow. */
function sigmoid(x: number): number {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

export interface PairwiseTerms {
  /** pointwise + weight * pairwise */
  loss: number;
  /** mean squared error of the scores */
  pointwise: number;
  /** mean softplus(-(z_better - z_worse)) over the pairs (0 without pairs) */
  pairwise: number;
  pairs: number;
  /** dL/dz per row: the gradient the backward takes on each logit */
  dLogits: Float64Array;
}

export function validateRanking(ranking: WithinGroupRanking, B: number, where: string): void {
  if (ranking.groups.length !== B || ranking.ran.length !== B) throw new Error(`${where}: ranking needs one group and one ran flag per row (${B} rows; got ${ranking.groups.length} and ${ranking.ran.length})`);
  if (!(ranking.weight >= 0 && Number.isFinite(ranking.weight))) throw new Error(`${where}: the pairwise weight must be a finite number >= 0, got ${ranking.weight}`);
}

/**
 * The pairwise objective's value and its gradient on each logit, from the batch's scores s and
 * logits z (the same rows). Shared by the reference loss and the engines, so both optimise one
 * objective.
 */
export function pairwiseTerms(scores: ArrayLike<number>, logits: ArrayLike<number>, targets: ArrayLike<number>, ranking: WithinGroupRanking): PairwiseTerms {
  const B = targets.length;
  const dLogits = new Float64Array(B);
  let pointwise = 0;
  for (let b = 0; b < B; b++) {
    const s = scores[b];
    const e = s - targets[b];
    pointwise += e * e;
    dLogits[b] = ((2 * e) / B) * s * (1 - s);
  }
  pointwise /= B;
  const pairs = rankPairs(targets, ranking);
  let pairwise = 0;
  if (pairs.length > 0) {
    const scale = ranking.weight / pairs.length;
    for (const [hi, lo] of pairs) {
      const d = logits[hi] - logits[lo];
      pairwise += softplus(-d);
      // d softplus(-d) / dd = -sigmoid(-d)
      const g = sigmoid(-d) * scale;
      dLogits[hi] -= g;
      dLogits[lo] += g;
    }
    pairwise /= pairs.length;
  }
  return { loss: pointwise + ranking.weight * pairwise, pointwise, pairwise, pairs: pairs.length, dLogits };
}
