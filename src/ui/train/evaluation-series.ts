// Held-out evaluations along a run as the Train view plots them: avg@k (percentile x 100) after
// each evaluated step with a 95% Student-t interval over the held-out tasks, and the SFT policy's
// (the evaluation before step 1) as the baseline line. Pure, so it is tested without a browser.
import type { RunEvaluation } from '../../app/run-store.ts';
import { tInterval } from '../../experiments/interval.ts';
import type { Point } from './run-series.ts';

export interface EvaluationPoint {
  step: number;
  /** avg@k x 100 and its interval over tasks (null bounds with one task). */
  mean: number;
  low: number | null;
  high: number | null;
  k: number;
  tasks: number;
  busySeconds: number;
}

/** One evaluation as a point; null when no task gave a score. */
export function evaluationPoint(e: RunEvaluation): EvaluationPoint | null {
  const perTask = e.result.tasks.map((t) => t.avg * 100).filter(Number.isFinite);
  if (perTask.length === 0) return null;
  const iv = tInterval(perTask);
  return { step: e.step, mean: iv.mean, low: iv.low, high: iv.high, k: e.result.k, tasks: perTask.length, busySeconds: e.busySeconds };
}

/** Evaluations comparable with the latest (same k, same number of tasks), one per step (the latest), by step. */
export function comparableEvaluations(evaluations: readonly RunEvaluation[]): EvaluationPoint[] {
  const points = evaluations.map(evaluationPoint).filter((p): p is EvaluationPoint => p !== null);
  const last = points.at(-1);
  if (!last) return [];
  const byStep = new Map<number, EvaluationPoint>();
  for (const p of points) if (p.k === last.k && p.tasks === last.tasks) byStep.set(p.step, p);
  return [...byStep.values()].sort((a, b) => a.step - b.step);
}

/** The SFT baseline: the evaluation before any step, when there is a comparable one. */
export function sftBaseline(points: readonly EvaluationPoint[]): EvaluationPoint | null {
  return points.find((p) => p.step === 0) ?? null;
}

/** A horizontal line at y over [x0, x1]. */
export function level(y: number, x0: number, x1: number): Point[] {
  return [[x0, y], [x1, y]];
}

/** Two horizontal lines, at low and at high, as one series (a non-finite point breaks the path). */
export function band(low: number, high: number, x0: number, x1: number): Point[] {
  return [[x0, low], [x1, low], [Number.NaN, Number.NaN], [x1, high], [x0, high]];
}
