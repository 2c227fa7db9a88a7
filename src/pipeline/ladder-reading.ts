// Reading a one-number score onto the authors' status ladder (status-ladder.ts), so that a world
// model with a scalar head (ours) and the baselines can be given the authors' fidelity figures:
// status accuracy at 1 and 2, and the error against the ladder reward. Fitted on training tasks'
// programs only, then applied unchanged to held-out ones.
//   - status: the scores are cut into `bins` quantile bins of the fitting programs; a bin predicts
//     its commonest status, and its second commonest as the second guess (the overall order fills
//     in where a bin saw fewer than two statuses).
//   - reward: isotonic regression of the ladder reward on the score (src/wmrl/isotonic.ts, the same
//     fit the method's debiasing uses), so a higher score never reads as a lower reward.
//   - gate (optional): as in the authors' code, a program that is blank or does not compile reads as
//     malformed / syntax error with reward 0 before the score is consulted; the bins and the isotonic
//     fit then see only the programs that pass the gate.
// The lead can reuse it for a `ladder` reward: `fitLadderReading(rows).read(score, program)`.

import { fitIsotonic, type Calibrator } from '../wmrl/isotonic.ts';
import { LADDER_STATUSES, type LadderStatus } from './status-ladder.ts';

export interface LadderRow {
  score: number;
  status: LadderStatus;
  /** the ladder reward the program really earned */
  reward: number;
  /** Python compiles the program */
  compiles: boolean;
  /** the program text is blank */
  blank: boolean;
}

export interface LadderGuess {
  /** the most likely status, then the second */
  statuses: [LadderStatus, LadderStatus];
  reward: number;
}

export interface LadderReading {
  read(score: number, program: { compiles: boolean; blank: boolean }): LadderGuess;
  /** lower edges of bins 1.. (bin 0 is everything below the first) */
  cuts: readonly number[];
  bins: readonly { n: number; statuses: [LadderStatus, LadderStatus] }[];
  gate: boolean;
}

function rankStatuses(rows: readonly { status: LadderStatus }[], fallback: readonly LadderStatus[]): [LadderStatus, LadderStatus] {
  const count = new Map<LadderStatus, number>();
  for (const r of rows) count.set(r.status, (count.get(r.status) ?? 0) + 1);
  // Commonest first; ties and unseen statuses in the fallback order.
  const order = [...LADDER_STATUSES].sort((a, b) => (count.get(b) ?? 0) - (count.get(a) ?? 0) || fallback.indexOf(a) - fallback.indexOf(b));
  return [order[0], order[1]];
}

export function fitLadderReading(rows: readonly LadderRow[], options: { bins?: number; gate?: boolean } = {}): LadderReading {
  const nBins = options.bins ?? 10;
  const gate = options.gate ?? false;
  const fit = gate ? rows.filter((r) => r.compiles && !r.blank) : rows;
  if (fit.length === 0) throw new Error('ladder reading: no fitting programs' + (gate ? ' pass the compile gate' : ''));
  for (const r of fit) if (!Number.isFinite(r.score)) throw new RangeError(`ladder reading: a fitting score is not finite (${r.score})`);
  const sorted = fit.map((r) => r.score).sort((a, b) => a - b);
  // Order-statistic cuts, deduplicated and above the minimum, so that no bin is empty.
  const cuts = [...new Set(Array.from({ length: nBins - 1 }, (_, k) => sorted[Math.floor(((k + 1) * sorted.length) / nBins)]))].filter((c) => c > sorted[0]).sort((a, b) => a - b);
  const binOf = (s: number): number => {
    let b = 0;
    while (b < cuts.length && s >= cuts[b]) b++;
    return b;
  };
  const overall = rankStatuses(fit, LADDER_STATUSES);
  const overallOrder = [...overall, ...LADDER_STATUSES.filter((s) => !overall.includes(s))];
  const members: LadderRow[][] = Array.from({ length: cuts.length + 1 }, () => []);
  for (const r of fit) members[binOf(r.score)].push(r);
  const bins = members.map((m) => ({ n: m.length, statuses: m.length ? rankStatuses(m, overallOrder) : overall }));
  const calibrator: Calibrator = fitIsotonic(fit.map((r) => r.score), fit.map((r) => r.reward));
  return {
    read(score, program) {
      if (gate && program.blank) return { statuses: ['malformed', 'syntax error'], reward: 0 };
      if (gate && !program.compiles) return { statuses: ['syntax error', 'malformed'], reward: 0 };
      return { statuses: bins[binOf(score)].statuses, reward: calibrator.predict(score) };
    },
    cuts,
    bins,
    gate,
  };
}
