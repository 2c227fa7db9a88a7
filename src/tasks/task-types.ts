// The shapes of a task as the rest of the app sees it. What a program may read (TaskMeta, the CSVs)
// is kept apart from what only the grader may read (TaskLabels).

export type TaskType = 'regression' | 'binary' | 'multiclass';
export type MetricName = 'rmse' | 'rmsle' | 'auc' | 'accuracy' | 'macro_f1';
export type Direction = 'higher' | 'lower';
/** train: used for RL and world-model training; heldout: evaluation only (sources no train task uses). */
export type TaskSplit = 'train' | 'heldout' | 'custom';
/** smoke: too small or saturated to rank programs reliably; kept for quick checks, not for scores. */
export type TaskRole = 'scored' | 'smoke';
export type ColumnKind = 'numeric' | 'categorical';

export interface ColumnInfo {
  name: string;
  kind: ColumnKind;
  /** Distinct non-missing values in the training rows (tells a program how wide one-hot gets). */
  distinct: number;
  missing: number;
}

/** Every choice the build made for this task, recorded so docs and JSON agree. */
export interface TaskChoices {
  seed: number;
  testFraction: number;
  trainCap: number;
  testCap: number;
  cellBudget: number;
  rowsInSource: number;
  rowsDroppedMissingTarget: number;
  droppedConstantColumns: string[];
  droppedForWidth: string[];
  metricOverride?: { from: MetricName; why: string };
  roleWhy?: string;
  stratified: boolean;
}

export interface CardFeatures {
  names: string[];
  values: number[];
}

/** Public description of a task: safe to show and to give to the world model (card) and programs. */
export interface TaskMeta {
  id: string;
  split: TaskSplit;
  role: TaskRole;
  type: TaskType;
  metric: MetricName;
  direction: Direction;
  target: string;
  /** Binary tasks: predictions are probabilities of this class. */
  positive?: string;
  /** Classification tasks: every label a prediction may use, sorted. */
  classes?: string[];
  columns: ColumnInfo[];
  nTrain: number;
  nTest: number;
  card: string;
  cardFeatures: CardFeatures;
  choices: TaskChoices;
  attribution?: string;
  license?: string;
}

/** Hidden test labels: read by the grader only, never written into a program's file system. */
export interface TaskLabels {
  id: string;
  target: string;
  type: TaskType;
  positive?: string;
  labels: string[];
}

/** A task as built in memory: its public meta, the two CSV texts a program gets, its hidden labels. */
export interface BuiltTask {
  meta: TaskMeta;
  trainCsv: string;
  testCsv: string;
  labels: TaskLabels;
}

/** What a sandboxed program receives: file name -> text. Contains no test labels by construction. */
export interface ProgramInputs {
  'train.csv': string;
  'test.csv': string;
  'task.json': string;
}
