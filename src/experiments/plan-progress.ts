// How far a pre-registered plan has come, and which verdicts are still provisional. Shared by every
// table a plan decides (the main table, the robot tables): a verdict is final only when no run still to
// come can change it. The primary test stands alone, so it waits for its own two rows; a test of a
// Holm family waits for every row its family names, because Holm adjusts each p by the others'.

/** A row of a plan and the seeds it is planned at. */
export interface PlannedRow {
  preset: string;
  seeds: readonly number[];
}

export interface RowProgress {
  preset: string;
  planned: number[];
  /** planned seeds with a finished run on disk */
  done: number[];
  /** planned seeds whose run is recorded as failed (and has no finished run) */
  failed: number[];
}

/** The part of a planned test its verdict's finality depends on. */
export interface PlannedTest {
  family: string;
  a: string;
  b: string;
}

/** Every row of the plan with its planned seeds, those finished and those recorded as failed. */
export function planProgress(rows: readonly PlannedRow[], status: (preset: string, seed: number) => 'ok' | 'failed' | null): RowProgress[] {
  return rows.map(({ preset, seeds }) => ({
    preset,
    planned: [...seeds],
    done: seeds.filter((s) => status(preset, s) === 'ok'),
    failed: seeds.filter((s) => status(preset, s) === 'failed'),
  }));
}

/** Runs finished and planned over every row. */
export function progressCounts(progress: readonly RowProgress[]): { done: number; planned: number } {
  return { done: progress.reduce((n, r) => n + r.done.length, 0), planned: progress.reduce((n, r) => n + r.planned.length, 0) };
}

/** True when the plan names the row and it has a finished run at every planned seed. */
export function rowComplete(progress: readonly RowProgress[], preset: string): boolean {
  const row = progress.find((r) => r.preset === preset);
  return row !== undefined && row.done.length === row.planned.length;
}

/** True when every row of the plan has a finished run at every planned seed. */
export const planComplete = (progress: readonly RowProgress[]): boolean => progress.every((r) => rowComplete(progress, r.preset));

/** The rows a test's verdict depends on: its own two for the primary test, its whole family's otherwise. */
export function rowsDecidingTest(t: PlannedTest, tests: readonly PlannedTest[]): string[] {
  const members = t.family === 'primary' ? [t] : tests.filter((x) => x.family === t.family);
  return [...new Set(members.flatMap((x) => [x.a, x.b]))];
}

/** The rows a test's verdict still waits for; none: no run to come can change the verdict. */
export const rowsAwaited = (t: PlannedTest, progress: readonly RowProgress[], tests: readonly PlannedTest[]): string[] =>
  rowsDecidingTest(t, tests).filter((preset) => !rowComplete(progress, preset));
