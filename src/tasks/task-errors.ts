// Errors a user can cause with their own data or files. Each carries a machine-readable code so the
// UI can react, and a message that says exactly what was wrong.

export type TaskErrorCode =
  | 'csv_unparseable'
  | 'csv_not_text'
  | 'csv_too_large'
  | 'csv_ragged'
  | 'csv_empty'
  | 'csv_duplicate_header'
  | 'target_missing'
  | 'target_constant'
  | 'target_too_few_rows'
  | 'target_class_too_small'
  | 'target_not_numeric'
  | 'target_negative'
  | 'unknown_metric'
  | 'unknown_task_type'
  | 'metric_incompatible'
  | 'positive_class_unknown'
  | 'no_features'
  | 'unknown_task'
  | 'bad_task_file';

export class TaskDataError extends Error {
  readonly code: TaskErrorCode;
  constructor(code: TaskErrorCode, message: string) {
    super(message);
    this.name = 'TaskDataError';
    this.code = code;
  }
}
