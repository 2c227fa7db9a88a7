// The suite's size limits. Programs run in pure Python (Pyodide, no numpy), where a tree ensemble
// or kNN costs seconds per thousand rows; these caps keep one program's run to seconds.

/** Most training rows a task keeps (subsampled, stratified, seeded). */
export const TRAIN_CAP = 1200;
/** Most test rows a task keeps. */
export const TEST_CAP = 800;
/** Default share of usable rows held out for the test side. */
export const TEST_FRACTION = 0.25;
/** Small data sets hold out more, so rankings of programs are less noisy. */
export const SMALL_TEST_FRACTION = 0.4;
/** A data set with fewer usable rows than this is "small". */
export const SMALL_ROWS = 600;
/** Train rows x features above this get the widest features trimmed (by entropy, see feature-selection). */
export const CELL_BUDGET = 48_000;
/** Never trim below this many features. */
export const MIN_WIDTH = 20;
/** Fewest rows with a target for a task to be built at all. */
export const MIN_ROWS = 30;
/** Fewest rows per class in a classification task (one each side of the split). */
export const MIN_CLASS_ROWS = 2;
/** Seed of the whole suite; each task mixes in a hash of its id. */
export const SUITE_SEED = 20260101;

export function defaultTestFraction(usableRows: number): number {
  return usableRows < SMALL_ROWS ? SMALL_TEST_FRACTION : TEST_FRACTION;
}
