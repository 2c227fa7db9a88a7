// The predictors of wm-eval's baseline table, built for one population: the trivial baselines and
// the world model, each as a score per program and a ladder reading fitted on the training tasks'
// programs (the fitting set). What the lookups and the readings learn comes from the fitting set
// only; the evaluated programs give nothing but their text, task type and the checks' answers.

import { predictorRow, type EvalProgram, type PredictorRow } from './baseline-table.ts';
import { fitLadderReading, type LadderRow } from './ladder-reading.ts';
import { fitMeanLookup } from './mean-lookup.ts';
import { familyTypeKeys, fitFamilyTypeLookup } from './family-type-lookup.ts';
import { programFamily } from './program-family.ts';
import type { BootstrapOptions } from './task-bootstrap.ts';

/** A program with everything a predictor may read: text facts, the free checks, the world model's score. */
export interface CheckedProgram extends EvalProgram {
  program: string;
  taskType: string;
  /** Python compiles it (the free verifier's first check) */
  compiles: boolean;
  /** the free verifier (static_check.py) passes it */
  verifierOk: boolean;
  /** the world model's score */
  wm: number;
}

interface Predictor {
  name: string;
  score: (p: CheckedProgram) => number;
  /** read onto the ladder behind the authors' compile gate */
  gate?: boolean;
}

/** Below every score in [0, 1]: what a gate gives a program it stops. */
const STOPPED = -1;

export function baselinePredictors(fit: readonly CheckedProgram[]): Predictor[] {
  if (fit.length === 0) throw new Error('baselines: the fitting set is empty');
  const keys = (p: CheckedProgram): string[] => familyTypeKeys(p.program, p.taskType);
  const family = fitMeanLookup(fit.map((p) => ({ keys: [programFamily(p.program)], y: p.y })));
  // the table `wm-eval --write-lookup` stores for training (family-type-lookup.ts)
  const familyType = fitFamilyTypeLookup(fit);
  const mean = family.overall;
  return [
    { name: 'constant (training mean)', score: () => mean },
    { name: '`compile()`', score: (p) => Number(p.compiles) },
    // The verifier compiles first, so it reads onto the ladder behind the same gate.
    { name: 'static verifier', score: (p) => Number(p.verifierOk), gate: true },
    { name: 'model-family lookup', score: (p) => family.predict([programFamily(p.program)]) },
    { name: 'family x task-type lookup', score: (p) => familyType.predict(keys(p)) },
    { name: 'family x task-type behind `compile()`', score: (p) => (p.compiles ? familyType.predict(keys(p)) : STOPPED), gate: true },
    { name: '**world model**', score: (p) => p.wm },
    { name: '**world model behind `compile()`**', score: (p) => (p.compiles ? p.wm : STOPPED), gate: true },
    { name: '**world model behind the static verifier**', score: (p) => (p.verifierOk ? p.wm : STOPPED), gate: true },
  ];
}

export function baselineRows(fit: readonly CheckedProgram[], population: readonly CheckedProgram[], options: BootstrapOptions): PredictorRow[] {
  return baselinePredictors(fit).map((pr) => {
    const rows: LadderRow[] = fit.map((p) => ({ score: pr.score(p), status: p.status, reward: p.reward, compiles: p.compiles, blank: p.program.trim() === '' }));
    const reading = fitLadderReading(rows, { gate: pr.gate });
    const scores = population.map(pr.score);
    const guesses = population.map((p, i) => reading.read(scores[i], { compiles: p.compiles, blank: p.program.trim() === '' }));
    return predictorRow(pr.name, population, scores, guesses, options);
  });
}
