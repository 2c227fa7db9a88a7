// What a program can call, shown beside the editor: the toolkit's helpers (one line each) and the
// model classes of the current task type with the hyperparameters worth trying. The classes and
// values come from the reference population's own table (programFamilies), and a unit test checks
// that every name here is one the toolkit exports, so the page cannot name what the sandbox lacks.
import { PREPROCESSING, programFamilies } from '../../sandbox-pyodide/reference-programs.ts';
import { pythonLiteral } from '../../pipeline/program-composer.ts';
import type { TaskType } from '../../tasks/task-types.ts';

export interface ToolkitHelper {
  /** The call as a program writes it. */
  call: string;
  what: string;
}

export const TOOLKIT_HELPERS: readonly ToolkitHelper[] = [
  { call: 'task = tk.load_task()', what: 'the task: task.train and task.test (tables of features), task.y (training targets), task.type, task.metric, task.positive (binary)' },
  { call: "pre = tk.Preprocessor(impute='median', scale='standard', encode='onehot', max_categories=10, missing_indicators=False)", what: "tables to rows of numbers: X = pre.fit_transform(task.train), X_test = pre.transform(task.test); impute 'mean' | 'median' | 'most_frequent' | 'zero', scale 'standard' | 'minmax' | None, encode 'onehot' | 'ordinal' | 'drop'" },
  { call: 'model.fit(X, task.y)', what: 'every model: fit, predict; classifiers also predict_proba (columns in the order of model.classes_)' },
  { call: "tk.TargetTransform(model, 'log1p')", what: 'a regressor fitted on log1p(y), its predictions mapped back (for skewed targets scored by rmsle)' },
  { call: 'best, scores = tk.select_best({name: lambda: model, ...}, X, task.y, task, k=None, seed=0)', what: 'picks among candidates by a holdout of the training rows (k=None) or k folds, on the task\'s metric' },
  { call: 'tk.task_outputs(model, X_test, task)', what: 'what predictions.csv wants from a fitted model: numbers (regression), positive-class probabilities (binary), labels (multiclass)' },
  { call: 'tk.write_predictions(task, values)', what: 'writes predictions.csv: one value per test row, in order (the only output that is graded)' },
];

export interface ToolkitModel {
  family: string;
  /** The class as `tk.Name`. */
  cls: string;
  /** Hyperparameters with values worth trying, as Python literals. */
  hyperparameters: { name: string; values: string[] }[];
  wantsScaling: boolean;
}

/** The model classes a program can use for this task type. */
export function toolkitModels(type: TaskType): ToolkitModel[] {
  return programFamilies.flatMap((f) => {
    const cls = f.classes[type];
    if (!cls) return [];
    const hyper = f.family === 'baseline' && type !== 'regression' ? {} : f.hyperparameters;
    return [{ family: f.family, cls: `tk.${cls}`, hyperparameters: Object.entries(hyper).map(([name, vs]) => ({ name, values: vs.map(pythonLiteral) })), wantsScaling: f.wantsScaling }];
  });
}

/** The Preprocessor settings the reference programs use, as written. */
export const PREPROCESSOR_EXAMPLES: readonly string[] = PREPROCESSING.map((p) => `tk.Preprocessor(${p.args})`);
