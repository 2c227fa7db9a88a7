// A synthetic corpus of short Python programs and task cards, seeded, for tokenizer tests.

import { testRng } from './test-models.ts';

const MODELS = ['RandomForest', 'GradientBoosting', 'LogisticRegression', 'KNN', 'Ridge', 'DecisionTree'];
const PARAMS = ['n_trees', 'max_depth', 'lr', 'k', 'alpha', 'min_leaf'];
const METRICS = ['accuracy', 'rmse', 'auc', 'f1'];

export function syntheticCorpus(n: number, seed: number): string[] {
  const rng = testRng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      out.push(
        `task: ${pick(['classification', 'regression'])}; metric: ${pick(METRICS)}; rows: ${Math.floor(rng() * 5000)}; ` +
          `numeric: ${Math.floor(rng() * 40)}; categorical: ${Math.floor(rng() * 10)}; missing: ${(rng() * 0.3).toFixed(3)}`,
      );
    } else {
      const m = pick(MODELS);
      const lines = [
        'from toolkit import load, impute, scale, models, write_predictions',
        '',
        'train, test = load()',
        `X, y = impute(train.features, strategy="${pick(['mean', 'median'])}"), train.target`,
        `model = models.${m}(${pick(PARAMS)}=${Math.floor(rng() * 200)}, ${pick(PARAMS)}=${(rng() * 2).toFixed(2)})`,
        'model.fit(scale(X), y)',
        'for row in test.rows:',
        '    if row.missing:',
        '        row.fill(0)',
        'write_predictions(model.predict(scale(test.features)))',
      ];
      out.push(lines.join('\n'));
    }
  }
  return out;
}
