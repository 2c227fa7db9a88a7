// Composes toolkit programs from the reference families (programFamilies x PREPROCESSING) with
// hyperparameters drawn from a seeded generator. They widen the policy's training corpus beyond the
// fixed reference population while staying in the same language (same header, same preprocessing
// lines, same write-out), so every composed program is valid toolkit code by construction.

import { PREPROCESSING, programFamilies, selectingProgram, singleModelProgram } from '../sandbox-pyodide/reference-programs.ts';
import type { PrepChoice, ProgramFamily } from '../sandbox-pyodide/reference-programs.ts';
import type { TaskType } from '../tasks/task-types.ts';
import type { Rng } from '../primitives/random.ts';
import { randomInt } from '../primitives/random.ts';

export interface ComposedProgram {
  id: string;
  family: string;
  source: string;
}

type HyperValue = number | string | null;

/** Python literal of a hyperparameter value. */
export function pythonLiteral(v: HyperValue): string {
  if (v === null) return 'None';
  if (typeof v === 'string') return `'${v}'`;
  if (!Number.isFinite(v)) throw new Error(`pythonLiteral: ${v} is not finite`);
  return String(v);
}

/**
 * Values kept per task type where the full list would make a program slow in pure Python
 * (multiclass boosting grows one tree per class per round; multinomial L-BFGS with many iterations).
 */
function allowedValues(family: string, name: string, values: readonly HyperValue[], type: TaskType): readonly HyperValue[] {
  if (type === 'multiclass' && family === 'gbm' && name === 'n_estimators') return values.filter((v) => typeof v === 'number' && v <= 50);
  if (type === 'multiclass' && family === 'logistic' && name === 'max_iter') return values.filter((v) => typeof v === 'number' && v <= 100);
  return values;
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[randomInt(rng, items.length)];
}

/** A model constructor call with a random subset of the family's hyperparameters set. */
export function composeModelExpr(family: ProgramFamily, type: TaskType, rng: Rng): { expr: string; tag: string } {
  const cls = family.classes[type];
  if (!cls) throw new Error(`family ${family.family} has no class for ${type}`);
  const args: string[] = [];
  const tags: string[] = [];
  // MajorityClassifier takes no arguments (the baseline's strategy is the regressor's).
  const hyper = family.family === 'baseline' && type !== 'regression' ? {} : family.hyperparameters;
  for (const [name, values] of Object.entries(hyper)) {
    // Each hyperparameter is set 3 times in 4, so defaults appear too.
    if (rng() >= 0.75) continue;
    const allowed = allowedValues(family.family, name, values, type);
    if (allowed.length === 0) continue;
    const v = pick(rng, allowed);
    args.push(`${name}=${pythonLiteral(v)}`);
    tags.push(`${name}${String(v)}`);
  }
  if (family.family === 'forest' || family.family === 'gbm') args.push('seed=0');
  return { expr: `tk.${cls}(${args.join(', ')})`, tag: tags.join('_') || 'default' };
}

/** Families that have a class for this task type. */
export function familiesFor(type: TaskType): ProgramFamily[] {
  return programFamilies.filter((f) => f.classes[type] !== null);
}

/** Preprocessing choices; families that want scaling avoid the unscaled ones 4 times in 5. */
function pickPrep(family: ProgramFamily, rng: Rng): PrepChoice {
  const scaled = PREPROCESSING.filter((p) => p.id !== 'raw');
  return family.wantsScaling && rng() < 0.8 ? pick(rng, scaled) : pick(rng, PREPROCESSING);
}

/**
 * One composed program for a task type: a single model (most of the time) or a validation choice
 * between two or three composed candidates. Regressors are wrapped in a log1p target transform
 * half the time under rmsle, rarely otherwise.
 */
export function composeProgram(type: TaskType, metric: string, rng: Rng): ComposedProgram {
  const families = familiesFor(type).filter((f) => f.family !== 'baseline' || rng() < 0.3);
  const logTarget = type === 'regression' && rng() < (metric === 'rmsle' ? 0.5 : 0.1);
  if (rng() < 0.2) {
    const n = 2 + randomInt(rng, 2);
    const chosen = Array.from({ length: n }, () => pick(rng, families.filter((f) => f.family !== 'baseline')));
    const prep = pickPrep(chosen[0], rng);
    const models = chosen.map((f) => ({ f, ...composeModelExpr(f, type, rng) }));
    const folds = rng() < 0.5 ? null : 3;
    const source = selectingProgram(prep, models.map((m, i) => ({ key: `'${m.f.family}_${i}'`, expr: m.expr })), folds, logTarget);
    return { id: `select_${models.map((m) => m.f.family).join('_')}__${prep.id}`, family: 'select', source };
  }
  const family = pick(rng, families);
  const prep = pickPrep(family, rng);
  const { expr, tag } = composeModelExpr(family, type, rng);
  const source = singleModelProgram(prep, expr, logTarget);
  return { id: `${logTarget ? 'log_' : ''}${family.family}_${tag}__${prep.id}`, family: family.family, source };
}
