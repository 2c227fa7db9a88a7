// Turns the StepRecords of a live run into chart series. Pure, so the view stays thin and the
// mapping is tested without a browser. Steps are numbered from 1 on screen (records count from 0).
import type { StepRecord } from '../../training/trainer.ts';
import type { CostComponent } from '../../training/cost.ts';
import { anchorUpdateShare } from '../../training/update-share.ts';

export type Point = readonly [number, number];

const pts = (records: readonly StepRecord[], f: (r: StepRecord) => number | null | undefined): Point[] =>
  records.flatMap((r) => {
    const v = f(r);
    return v === null || v === undefined || !Number.isFinite(v) ? [] : [[r.step + 1, v] as const];
  });

/** Steps whose real score is averaged into the smoothed line (steps without anchors do not count). */
export const REAL_SMOOTHING = 5;

export function rewardSeries(records: readonly StepRecord[]) {
  const real = pts(records, (r) => r.meanRealReward);
  return {
    training: pts(records, (r) => r.meanReward),
    real,
    realSmoothed: trailingMean(real, REAL_SMOOTHING),
    worldModel: pts(records, (r) => r.meanWmReward),
  };
}

/** Each point's y replaced by the mean of its own and the previous window - 1 points' y (fewer at the start). */
export function trailingMean(points: readonly Point[], window: number): Point[] {
  if (!(Number.isInteger(window) && window >= 1)) throw new RangeError(`trailingMean: window must be a positive integer, got ${window}`);
  return points.map((p, i) => {
    const from = Math.max(0, i - window + 1);
    let sum = 0;
    for (let j = from; j <= i; j++) sum += points[j][1];
    return [p[0], sum / (i - from + 1)] as const;
  });
}

/**
 * Per step: our normalised stream weights (ivw; shown only where they drive the update), the PPI
 * lambda, the authors' anchor weight w (in [1, 4], drawn / 4), and for every mixed run the anchors'
 * share of the update, which reads the same whatever the rule.
 */
export function fusionSeries(records: readonly StepRecord[]) {
  const ivw = (r: StepRecord) => r.worldModelCalled && r.fusion.mode === 'ivw';
  return {
    wA: pts(records, (r) => (ivw(r) ? r.fusion.wA : null)),
    wW: pts(records, (r) => (ivw(r) ? r.fusion.wW : null)),
    lambda: pts(records, (r) => (r.fusion.mode === 'ppi' ? r.fusion.lambda : null)),
    authorsWeightQuarter: pts(records, (r) => (r.fusion.anchorWeight === undefined ? null : r.fusion.anchorWeight / 4)),
    anchorShare: pts(records, (r) => (r.worldModelCalled && r.anchorGroups > 0 ? anchorUpdateShare(r.groups) : null)),
  };
}

export function errorSeries(records: readonly StepRecord[]) {
  return {
    r: pts(records, (r) => r.fusion.r),
    meanAbsError: pts(records, (r) => r.realVsWm.meanAbsError),
  };
}

export const COST_LABELS: Record<CostComponent, string> = {
  policySampling: 'policy sampling',
  worldModel: 'world-model forwards',
  verifier: 'static check (wmrl-static)',
  sandbox: 'sandbox executions',
  sandboxStart: 'sandbox start-up (a fresh interpreter per job)',
  policyUpdate: 'policy update',
};

/** Cumulative busy seconds per component, and wall seconds, after each step. */
export function costSeries(records: readonly StepRecord[]) {
  const components = Object.keys(COST_LABELS) as CostComponent[];
  return {
    components: components.map((c) => ({ component: c, points: pts(records, (r) => (r.cumulativeCost.busyMs[c] ?? 0) / 1000) })),
    total: pts(records, (r) => r.cumulativeCost.totalBusyMs / 1000),
    wall: pts(records, (r) => r.cumulativeCost.wallMs / 1000),
  };
}

export function healthSeries(records: readonly StepRecord[]) {
  return {
    validRunRate: pts(records, (r) => r.validRunRate),
    zeroSpread: pts(records, (r) => r.zeroSpreadFraction),
  };
}

/** The latest calibration curve g as a polyline over [0, 1] (constant beyond the knots). */
export function calibrationCurve(record: StepRecord | undefined): Point[] {
  const k = record?.calibration.knots;
  if (!k || k.x.length === 0) return [[0, 0], [1, 1]];
  const out: Point[] = [[0, k.y[0]]];
  for (let i = 0; i < k.x.length; i++) out.push([k.x[i], k.y[i]]);
  out.push([1, k.y[k.y.length - 1]]);
  return out.sort((a, b) => a[0] - b[0]);
}

/** Share of groups executed for real so far, as the accumulator keeps it. */
export function anchorShare(record: StepRecord | undefined): number | null {
  if (!record || record.groupsSoFar === 0) return null;
  return record.anchorsSoFar / record.groupsSoFar;
}

/**
 * Where a step's time went, measured: its wall seconds and each component's busy seconds, largest
 * first (components the step never charged left out). Sandbox runs overlap the world model's
 * scoring, so the parts may add up to more than the wall time.
 */
export function stepTimes(record: StepRecord): { wallSeconds: number; parts: { label: string; seconds: number }[] } {
  const parts = (Object.keys(COST_LABELS) as CostComponent[])
    .map((c) => ({ label: COST_LABELS[c], seconds: (record.cost.busyMs[c] ?? 0) / 1000 }))
    .filter((p) => p.seconds > 0)
    .sort((a, b) => b.seconds - a.seconds);
  return { wallSeconds: record.cost.wallMs / 1000, parts };
}
