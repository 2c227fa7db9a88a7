// The reference program population: for each task type, a fixed set of deterministic Python
// programs written against the toolkit, from constant baselines to tuned ensembles. They are each
// task's leaderboard (a program's score is the share of this population it beats), so the set is
// deliberately wide: weak programs on purpose (constants, crushing regularisation, unscaled kNN,
// stumps) as well as strong ones, and several preprocessing choices per model family.

import type { TaskType } from '../tasks/task-types.ts';

export interface ReferenceProgram {
  id: string;
  family: string;
  source: string;
}

/** One preprocessing choice: the Preprocessor's keyword arguments, as Python source. */
export interface PrepChoice {
  id: string;
  args: string;
}

/** A model template: `expr` builds a fresh model (Python expression); family names the toolkit family. */
export interface ModelChoice {
  id: string;
  family: string;
  expr: string;
}

/** Plain data the policy's training corpus can be built from: preprocessing x model templates. */
export interface ProgramFamily {
  family: string;
  /** Toolkit class per task type (null where the family has none). */
  classes: Record<TaskType, string | null>;
  /** Hyperparameters that matter, with values worth trying. */
  hyperparameters: Record<string, readonly (number | string | null)[]>;
  /** Whether the family needs scaled inputs to behave. */
  wantsScaling: boolean;
}

export const PREPROCESSING: readonly PrepChoice[] = [
  { id: 'std', args: "impute='median', scale='standard', encode='onehot', max_categories=10" },
  { id: 'minmax', args: "impute='mean', scale='minmax', encode='onehot', max_categories=10" },
  { id: 'raw', args: "impute='median', scale=None, encode='ordinal'" },
  { id: 'std_flags', args: "impute='median', scale='standard', encode='onehot', max_categories=20, missing_indicators=True" },
  { id: 'numeric_only', args: "impute='mean', scale='standard', encode='drop'" },
];

export const programFamilies: readonly ProgramFamily[] = [
  { family: 'baseline', classes: { regression: 'MeanRegressor', binary: 'MajorityClassifier', multiclass: 'MajorityClassifier' }, hyperparameters: { strategy: ['mean', 'median'] }, wantsScaling: false },
  { family: 'linear', classes: { regression: 'LinearRegression', binary: null, multiclass: null }, hyperparameters: {}, wantsScaling: false },
  { family: 'ridge', classes: { regression: 'Ridge', binary: null, multiclass: null }, hyperparameters: { alpha: [0.01, 0.1, 1, 10, 100, 1000] }, wantsScaling: true },
  { family: 'logistic', classes: { regression: null, binary: 'LogisticRegression', multiclass: 'LogisticRegression' }, hyperparameters: { C: [0.001, 0.01, 0.1, 1, 10, 100], max_iter: [20, 100, 300] }, wantsScaling: true },
  { family: 'knn', classes: { regression: 'KNeighborsRegressor', binary: 'KNeighborsClassifier', multiclass: 'KNeighborsClassifier' }, hyperparameters: { k: [1, 3, 5, 15, 50], weights: ['uniform', 'distance'] }, wantsScaling: true },
  { family: 'naive_bayes', classes: { regression: null, binary: 'GaussianNB', multiclass: 'GaussianNB' }, hyperparameters: { var_smoothing: [1e-9, 1e-3, 0.1] }, wantsScaling: false },
  { family: 'tree', classes: { regression: 'DecisionTreeRegressor', binary: 'DecisionTreeClassifier', multiclass: 'DecisionTreeClassifier' }, hyperparameters: { max_depth: [1, 2, 4, 6, 10, null], min_samples_leaf: [1, 5, 20] }, wantsScaling: false },
  { family: 'forest', classes: { regression: 'RandomForestRegressor', binary: 'RandomForestClassifier', multiclass: 'RandomForestClassifier' }, hyperparameters: { n_trees: [10, 30, 60], max_depth: [4, 8, 12, null], max_features: ['sqrt', 0.33, 0.6], min_samples_leaf: [1, 3, 10] }, wantsScaling: false },
  { family: 'gbm', classes: { regression: 'GradientBoostingRegressor', binary: 'GradientBoostingClassifier', multiclass: 'GradientBoostingClassifier' }, hyperparameters: { n_estimators: [20, 50, 100, 200], learning_rate: [0.03, 0.1, 0.3], max_depth: [2, 3, 4], subsample: [1.0, 0.8] }, wantsScaling: false },
];

// The two program templates every toolkit program the project writes follows (the leaderboards'
// reference population here, the composed corpus programs in src/pipeline/program-composer.ts).
const HEADER = 'import toolkit as tk\n\ntask = tk.load_task()\n';
const WRITE_OUT = 'tk.write_predictions(task, tk.task_outputs(model, X_test, task))\n';

function prepLines(prep: PrepChoice): string {
  return `pre = tk.Preprocessor(${prep.args})\nX = pre.fit_transform(task.train)\nX_test = pre.transform(task.test)\n`;
}

const logWrapped = (expr: string, logTarget: boolean): string => (logTarget ? `tk.TargetTransform(${expr}, 'log1p')` : expr);

/** A program that fits one model (`expr`, a Python expression). logTarget wraps a regressor in a log1p target transform. */
export function singleModelProgram(prep: PrepChoice, expr: string, logTarget = false): string {
  return HEADER + prepLines(prep) + `model = ${logWrapped(expr, logTarget)}\nmodel.fit(X, task.y)\n` + WRITE_OUT;
}

/**
 * A program that picks among candidates on a holdout (folds null) or k folds of the training rows,
 * then refits. Each candidate's key is given as a Python literal.
 */
export function selectingProgram(prep: PrepChoice, candidates: readonly { key: string; expr: string }[], folds: number | null, logTarget = false): string {
  const lines = candidates.map((c) => `    ${c.key}: lambda: ${logWrapped(c.expr, logTarget)},`).join('\n');
  const how = folds === null ? 'seed=0' : `k=${folds}, seed=0`;
  return (
    HEADER +
    prepLines(prep) +
    `candidates = {\n${lines}\n}\n` +
    `best, scores = tk.select_best(candidates, X, task.y, task, ${how})\n` +
    "print('validation', scores, 'chose', best)\n" +
    'model = candidates[best]().fit(X, task.y)\n' +
    WRITE_OUT
  );
}

/** The reference population's candidates are keyed by their id as a double-quoted literal. */
const keyed = (models: readonly ModelChoice[]): { key: string; expr: string }[] => models.map((c) => ({ key: JSON.stringify(c.id), expr: c.expr }));

const P = Object.fromEntries(PREPROCESSING.map((p) => [p.id, p])) as Record<string, PrepChoice>;

function m(family: string, id: string, expr: string): ModelChoice {
  return { id, family, expr };
}

function regressionModels(): ModelChoice[] {
  return [
    m('baseline', 'mean', 'tk.MeanRegressor()'),
    m('baseline', 'median', "tk.MeanRegressor(strategy='median')"),
    m('linear', 'ols', 'tk.LinearRegression()'),
    m('ridge', 'ridge_0.1', 'tk.Ridge(alpha=0.1)'),
    m('ridge', 'ridge_1', 'tk.Ridge(alpha=1.0)'),
    m('ridge', 'ridge_10', 'tk.Ridge(alpha=10.0)'),
    m('ridge', 'ridge_100', 'tk.Ridge(alpha=100.0)'),
    m('ridge', 'ridge_1e4', 'tk.Ridge(alpha=10000.0)'),
    m('knn', 'knn_1', 'tk.KNeighborsRegressor(k=1)'),
    m('knn', 'knn_5', 'tk.KNeighborsRegressor(k=5)'),
    m('knn', 'knn_15_dist', "tk.KNeighborsRegressor(k=15, weights='distance')"),
    m('knn', 'knn_50', 'tk.KNeighborsRegressor(k=50)'),
    m('tree', 'tree_d1', 'tk.DecisionTreeRegressor(max_depth=1)'),
    m('tree', 'tree_d3', 'tk.DecisionTreeRegressor(max_depth=3)'),
    m('tree', 'tree_d6_l5', 'tk.DecisionTreeRegressor(max_depth=6, min_samples_leaf=5)'),
    m('tree', 'tree_full', 'tk.DecisionTreeRegressor(max_depth=None, min_samples_leaf=1)'),
    m('tree', 'tree_d10_l20', 'tk.DecisionTreeRegressor(max_depth=10, min_samples_leaf=20)'),
    m('forest', 'rf_20_d4', 'tk.RandomForestRegressor(n_trees=20, max_depth=4, seed=0)'),
    m('forest', 'rf_10_d6', 'tk.RandomForestRegressor(n_trees=10, max_depth=6, seed=0)'),
    m('forest', 'rf_30_d10', 'tk.RandomForestRegressor(n_trees=30, max_depth=10, min_samples_leaf=2, seed=0)'),
    m('forest', 'rf_40_full_mf06', 'tk.RandomForestRegressor(n_trees=40, max_depth=None, min_samples_leaf=3, max_features=0.6, seed=0)'),
    m('gbm', 'gbm_50_lr0.1_d3', 'tk.GradientBoostingRegressor(n_estimators=50, learning_rate=0.1, max_depth=3, seed=0)'),
    m('gbm', 'gbm_150_lr0.05_d3_ss', 'tk.GradientBoostingRegressor(n_estimators=150, learning_rate=0.05, max_depth=3, subsample=0.8, seed=0)'),
    m('gbm', 'gbm_100_lr0.1_d4', 'tk.GradientBoostingRegressor(n_estimators=100, learning_rate=0.1, max_depth=4, seed=0)'),
    m('gbm', 'gbm_20_lr0.3_d2', 'tk.GradientBoostingRegressor(n_estimators=20, learning_rate=0.3, max_depth=2, seed=0)'),
    m('gbm', 'gbm_200_lr0.5_d4', 'tk.GradientBoostingRegressor(n_estimators=200, learning_rate=0.5, max_depth=4, seed=0)'),
  ];
}

function classificationModels(type: 'binary' | 'multiclass'): ModelChoice[] {
  // Multiclass boosting grows one tree per class per round: fewer rounds keep it to seconds.
  const rounds = type === 'binary' ? [50, 150] : [30, 60];
  return [
    m('baseline', 'majority', 'tk.MajorityClassifier()'),
    m('logistic', 'logit_C1e-3', 'tk.LogisticRegression(C=0.001)'),
    m('logistic', 'logit_C0.1', 'tk.LogisticRegression(C=0.1)'),
    m('logistic', 'logit_C1', 'tk.LogisticRegression(C=1.0)'),
    m('logistic', 'logit_C100', 'tk.LogisticRegression(C=100.0, max_iter=150)'),
    m('logistic', 'logit_C1_it5', 'tk.LogisticRegression(C=1.0, max_iter=5)'),
    m('knn', 'knn_1', 'tk.KNeighborsClassifier(k=1)'),
    m('knn', 'knn_5', 'tk.KNeighborsClassifier(k=5)'),
    m('knn', 'knn_15_dist', "tk.KNeighborsClassifier(k=15, weights='distance')"),
    m('knn', 'knn_50', 'tk.KNeighborsClassifier(k=50)'),
    m('naive_bayes', 'gnb', 'tk.GaussianNB()'),
    m('naive_bayes', 'gnb_smooth', 'tk.GaussianNB(var_smoothing=0.1)'),
    m('tree', 'tree_d1', 'tk.DecisionTreeClassifier(max_depth=1)'),
    m('tree', 'tree_d3', 'tk.DecisionTreeClassifier(max_depth=3)'),
    m('tree', 'tree_d6_l5', 'tk.DecisionTreeClassifier(max_depth=6, min_samples_leaf=5)'),
    m('tree', 'tree_full', 'tk.DecisionTreeClassifier(max_depth=None)'),
    m('tree', 'tree_d10_l20', 'tk.DecisionTreeClassifier(max_depth=10, min_samples_leaf=20)'),
    m('forest', 'rf_20_d4', 'tk.RandomForestClassifier(n_trees=20, max_depth=4, seed=0)'),
    m('forest', 'rf_10_d6', 'tk.RandomForestClassifier(n_trees=10, max_depth=6, seed=0)'),
    m('forest', 'rf_30_d10', 'tk.RandomForestClassifier(n_trees=30, max_depth=10, seed=0)'),
    m('forest', 'rf_60_full', "tk.RandomForestClassifier(n_trees=60, max_depth=None, min_samples_leaf=1, max_features='sqrt', seed=0)"),
    m('forest', 'rf_30_mf06_l5', 'tk.RandomForestClassifier(n_trees=30, max_depth=12, max_features=0.6, min_samples_leaf=5, seed=0)'),
    m('gbm', `gbm_${rounds[0]}_lr0.1_d3`, `tk.GradientBoostingClassifier(n_estimators=${rounds[0]}, learning_rate=0.1, max_depth=3, seed=0)`),
    m('gbm', `gbm_${rounds[1]}_lr0.05_d3_ss`, `tk.GradientBoostingClassifier(n_estimators=${rounds[1]}, learning_rate=0.05, max_depth=3, subsample=0.8, seed=0)`),
    m('gbm', 'gbm_20_lr0.3_d2', 'tk.GradientBoostingClassifier(n_estimators=20, learning_rate=0.3, max_depth=2, seed=0)'),
    m('gbm', `gbm_${rounds[0]}_lr0.8_d4`, `tk.GradientBoostingClassifier(n_estimators=${rounds[0]}, learning_rate=0.8, max_depth=4, seed=0)`),
  ];
}

/** Which preprocessing each model family is paired with in the population (first = the sensible one). */
const PREPS_FOR: Record<string, readonly string[]> = {
  baseline: ['std'],
  linear: ['std', 'std_flags', 'numeric_only'],
  ridge: ['std', 'minmax', 'std_flags'],
  logistic: ['std', 'minmax', 'raw'],
  knn: ['std', 'minmax', 'raw'],
  naive_bayes: ['std', 'raw'],
  tree: ['raw', 'std'],
  forest: ['raw', 'numeric_only'],
  gbm: ['raw', 'std_flags'],
};

function selectionSets(type: TaskType): { id: string; prep: string; folds: number | null; candidates: ModelChoice[] }[] {
  if (type === 'regression') {
    return [
      { id: 'select_ridge_alpha', prep: 'std', folds: 3, candidates: [m('ridge', 'a0.1', 'tk.Ridge(alpha=0.1)'), m('ridge', 'a1', 'tk.Ridge(alpha=1.0)'), m('ridge', 'a10', 'tk.Ridge(alpha=10.0)'), m('ridge', 'a100', 'tk.Ridge(alpha=100.0)')] },
      { id: 'select_linear_vs_trees', prep: 'std', folds: null, candidates: [m('ridge', 'ridge', 'tk.Ridge(alpha=1.0)'), m('forest', 'rf', 'tk.RandomForestRegressor(n_trees=20, max_depth=8, seed=0)'), m('gbm', 'gbm', 'tk.GradientBoostingRegressor(n_estimators=60, learning_rate=0.1, max_depth=3, seed=0)')] },
      { id: 'select_knn_k', prep: 'std', folds: 3, candidates: [m('knn', 'k3', 'tk.KNeighborsRegressor(k=3)'), m('knn', 'k10', "tk.KNeighborsRegressor(k=10, weights='distance')"), m('knn', 'k30', 'tk.KNeighborsRegressor(k=30)')] },
      { id: 'select_gbm_lr', prep: 'raw', folds: null, candidates: [m('gbm', 'lr0.05', 'tk.GradientBoostingRegressor(n_estimators=80, learning_rate=0.05, max_depth=3, seed=0)'), m('gbm', 'lr0.2', 'tk.GradientBoostingRegressor(n_estimators=80, learning_rate=0.2, max_depth=3, seed=0)')] },
    ];
  }
  const clf = (s: string): string => s.replace(/Regressor/g, 'Classifier');
  return [
    { id: 'select_logit_C', prep: 'std', folds: 3, candidates: [m('logistic', 'C0.01', 'tk.LogisticRegression(C=0.01)'), m('logistic', 'C0.1', 'tk.LogisticRegression(C=0.1)'), m('logistic', 'C1', 'tk.LogisticRegression(C=1.0)'), m('logistic', 'C10', 'tk.LogisticRegression(C=10.0)')] },
    { id: 'select_linear_vs_trees', prep: 'std', folds: null, candidates: [m('logistic', 'logit', 'tk.LogisticRegression(C=1.0)'), m('forest', 'rf', clf('tk.RandomForestRegressor(n_trees=20, max_depth=8, seed=0)')), m('gbm', 'gbm', clf(`tk.GradientBoostingRegressor(n_estimators=${type === 'binary' ? 60 : 25}, learning_rate=0.1, max_depth=3, seed=0)`))] },
    { id: 'select_knn_k', prep: 'std', folds: 3, candidates: [m('knn', 'k3', 'tk.KNeighborsClassifier(k=3)'), m('knn', 'k10', "tk.KNeighborsClassifier(k=10, weights='distance')"), m('knn', 'k30', 'tk.KNeighborsClassifier(k=30)')] },
    { id: 'select_nb_vs_tree', prep: 'std', folds: null, candidates: [m('naive_bayes', 'gnb', 'tk.GaussianNB()'), m('tree', 'tree', 'tk.DecisionTreeClassifier(max_depth=5, min_samples_leaf=5)')] },
  ];
}

/**
 * The leaderboard population for a task type: at least 50 deterministic programs. For regression
 * scored by rmsle, log-target variants of the main regressors join the population.
 */
export function referencePrograms(taskType: TaskType, metric?: string): ReferenceProgram[] {
  const models = taskType === 'regression' ? regressionModels() : classificationModels(taskType);
  const out: ReferenceProgram[] = [];
  for (const model of models) {
    const preps = PREPS_FOR[model.family];
    // Each model with its sensible preprocessing; the cheap families also with every alternative.
    const cheap = ['baseline', 'linear', 'ridge', 'logistic', 'naive_bayes', 'tree'].includes(model.family);
    const use = cheap || model.id.endsWith('_5') || model.id.includes('_30_') || model.id.startsWith('gbm_5') ? preps : preps.slice(0, 1);
    for (const pid of use) {
      if (model.family === 'baseline' && pid !== 'std') continue;
      out.push({ id: `${model.id}__${pid}`, family: model.family, source: singleModelProgram(P[pid], model.expr) });
    }
  }
  for (const sel of selectionSets(taskType)) {
    out.push({ id: `${sel.id}__${sel.prep}`, family: 'select', source: selectingProgram(P[sel.prep], keyed(sel.candidates), sel.folds) });
  }
  if (taskType === 'regression') {
    const logged = ['ridge_10', 'knn_15_dist', 'tree_d6_l5', 'rf_30_d10', 'gbm_50_lr0.1_d3', 'gbm_150_lr0.05_d3_ss'];
    const useLog = metric === 'rmsle';
    // Log targets are the natural choice under rmsle; elsewhere keep a couple as plausible variants.
    for (const id of useLog ? logged : logged.slice(3, 5)) {
      const model = models.find((x) => x.id === id);
      if (!model) continue;
      const prep = PREPS_FOR[model.family][0];
      out.push({ id: `log_${id}__${prep}`, family: model.family, source: singleModelProgram(P[prep], model.expr, true) });
    }
    if (useLog) {
      const sel = selectionSets('regression')[1];
      out.push({ id: `log_${sel.id}__${sel.prep}`, family: 'select', source: selectingProgram(P[sel.prep], keyed(sel.candidates), sel.folds, true) });
    }
  }
  return out;
}
