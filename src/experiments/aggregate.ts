// From run results to the numbers of the tables: per run a flat set of metrics, per preset the mean
// and 95% Student-t interval over seeds, and the paired comparisons the claims of method.md 5 need
// (ratios and differences computed seed by seed, so the shared randomness of a seed cancels).
import { COST_COMPONENTS, type CostComponent } from '../training/cost.ts';
import { isRejectedMessage } from '../training/static-checks.ts';
import { isCompileFailure } from '../training/execution-rung.ts';
import { anchorUpdateShare } from '../training/update-share.ts';
import { tInterval, type MeanInterval } from './interval.ts';
import { pairwiseAccuracy } from '../pipeline/rank-metrics.ts';
import { SFT_PRESET, type RunResult, type TrimmedStepRecord } from './run-result.ts';
import { meanOf } from '../primitives/mean.ts';

export type MetricKey =
  | 'heldOut'
  | 'heldOutCheckpointMean'
  | 'heldOutLadder'
  | 'medalRate'
  | 'anyMedalRate'
  | 'validRunRate'
  | 'lowestValidRunRate'
  | 'busy.policySampling'
  | 'busy.worldModel'
  | 'busy.verifier'
  | 'busy.sandbox'
  | 'busy.sandboxStart'
  | 'busy.policyUpdate'
  | 'busyTotal'
  | 'trainWall'
  | 'executions'
  | 'worldModelForwards'
  | 'meanAnchorWeight'
  | 'meanAuthorsWeight'
  | 'anchorUpdateShare'
  | 'wmScoreFirst'
  | 'wmScoreLast'
  | 'tokensFirst'
  | 'tokensLast'
  | 'wmPairwiseAccuracy'
  | 'wmValidityAccuracy'
  | 'anchorNoCompile'
  | 'anchorRunFail'
  | 'wmFailedMinusValid'
  | 'hostLoad';

export interface MetricSpec {
  key: MetricKey;
  label: string;
  /** Decimals in the tables. */
  digits: number;
  /** Training metrics do not exist for the SFT rows. */
  training: boolean;
}

const BUSY_LABEL: Record<CostComponent, string> = {
  policySampling: 'policy sampling busy s',
  worldModel: 'world model busy s',
  verifier: 'static check busy s',
  sandbox: 'sandbox busy s',
  sandboxStart: 'sandbox start-up busy s',
  policyUpdate: 'policy update busy s',
};

export const METRICS: readonly MetricSpec[] = [
  { key: 'heldOut', label: 'held-out avg@k x100', digits: 2, training: false },
  // The mean over the evaluations during and after training (--eval-every): far less noisy than the
  // last one alone (docs/results.md, the pilot of the authors' presets).
  { key: 'heldOutCheckpointMean', label: 'held-out avg@k x100, mean over checkpoints', digits: 2, training: true },
  { key: 'heldOutLadder', label: 'held-out ladder reward x100', digits: 2, training: false },
  { key: 'medalRate', label: 'medal rate %', digits: 1, training: false },
  { key: 'anyMedalRate', label: 'any-medal@k %', digits: 1, training: false },
  { key: 'validRunRate', label: 'valid runs %', digits: 1, training: false },
  // A collapse the last evaluation can miss: the fewest held-out programs that ran at any checkpoint of the run.
  { key: 'lowestValidRunRate', label: 'lowest valid runs % over checkpoints', digits: 1, training: true },
  ...COST_COMPONENTS.map((c): MetricSpec => ({ key: `busy.${c}`, label: BUSY_LABEL[c], digits: 1, training: true })),
  { key: 'busyTotal', label: 'total busy s', digits: 1, training: true },
  { key: 'trainWall', label: 'training wall s', digits: 1, training: true },
  { key: 'executions', label: 'executions', digits: 0, training: true },
  { key: 'worldModelForwards', label: 'world-model forwards', digits: 0, training: true },
  { key: 'meanAnchorWeight', label: 'mean anchor weight w_A', digits: 3, training: true },
  { key: 'meanAuthorsWeight', label: "mean authors' anchor weight w", digits: 3, training: true },
  // How much of the update the real stream carries: w_A alone misses calibration flattening the
  // world model's advantages (a flat isotonic fit sends the world-model stream's coefficients to 0).
  { key: 'anchorUpdateShare', label: "anchor groups' share of the update (sum of abs c)", digits: 3, training: true },
  // Reward hacking shows as a rising world-model score with a falling real one; program length often moves with it.
  { key: 'wmScoreFirst', label: 'raw world-model score, first step', digits: 3, training: true },
  { key: 'wmScoreLast', label: 'raw world-model score, last step', digits: 3, training: true },
  { key: 'tokensFirst', label: 'program tokens, first step', digits: 1, training: true },
  { key: 'tokensLast', label: 'program tokens, last step', digits: 1, training: true },
  // What the world-model stream needs: within a group, does s order the programs as y does? 0.5 is chance.
  { key: 'wmPairwiseAccuracy', label: 'world-model pairwise accuracy on anchors', digits: 3, training: true },
  // The same over pairs where exactly one program ran: does s prefer the one that works?
  { key: 'wmValidityAccuracy', label: 'world model prefers the valid one (failed vs valid pairs)', digits: 3, training: true },
  // Why the anchors' programs fail, and whether the world model sees it: a program that does not
  // compile is what a free verifier rejects; s(failed) - s(valid) near 0 or above means it does not.
  { key: 'anchorNoCompile', label: 'anchor programs that do not compile %', digits: 1, training: true },
  { key: 'anchorRunFail', label: 'anchor programs that fail when run %', digits: 1, training: true },
  { key: 'wmFailedMinusValid', label: 'world-model score, failed minus valid anchors', digits: 3, training: true },
  // The host's 1-minute load average during the run, per core: near 1 means another job shared the cores.
  { key: 'hostLoad', label: 'host load per core (mean over run)', digits: 2, training: false },
];

/** Mean raw world-model score s over a step's programs; undefined when the world model was not called. */
function meanWmScore(step: TrimmedStepRecord): number | undefined {
  const s = step.groups.flatMap((g) => g.wmScores ?? []);
  return s.length > 0 ? meanOf(s) : undefined;
}

/**
 * Over the run's anchor groups (where both s and y exist): the share of program pairs with different
 * real scores that the world-model scores order the same way (pairwiseAccuracy, ties half).
 */
/** What anchorPairAccuracy reads of a step record (full or trimmed). */
export interface AnchorPairSource {
  step: number;
  groups: readonly { realScores: readonly number[] | null; wmScores: readonly number[] | null; statuses: readonly string[] | null; messages?: readonly (string | null)[] | null }[];
}


export function anchorPairAccuracy(records: readonly AnchorPairSource[], failedVsValidOnly = false): { accuracy: number; pairs: number } {
  const truth: number[] = [];
  const pred: number[] = [];
  const group: string[] = [];
  for (const step of records) {
    step.groups.forEach((g, k) => {
      if (!g.realScores || !g.wmScores) return;
      for (let i = 0; i < g.realScores.length; i++) {
        // rejected by the static check (wmrl-static): never scored, its s is a placeholder 0
        if (isRejectedMessage(g.messages?.[i])) continue;
        // no verdict (the sandbox's backstop): its real score is a placeholder
        if (g.statuses?.[i] === 'unscored') continue;
        // For the validity question the truth is only "ran and was graded" (1) or not (0), and a pair
        // of two valid (or two failed) programs falls out because its truths are equal.
        truth.push(failedVsValidOnly ? (g.statuses?.[i] === 'ok' ? 1 : 0) : g.realScores[i]);
        pred.push(g.wmScores[i]);
        group.push(`${step.step}/${k}`);
      }
    });
  }
  return pairwiseAccuracy(truth, pred, group);
}

function wmPairwiseAccuracy(records: readonly TrimmedStepRecord[], failedVsValidOnly = false): number | undefined {
  const r = anchorPairAccuracy(records, failedVsValidOnly);
  return r.pairs > 0 ? r.accuracy : undefined;
}

/** Over the run's anchor programs: % that do not compile, % that fail otherwise, mean s of failed minus valid ones (scored ones only). */
function anchorFailures(records: readonly TrimmedStepRecord[]): { programs: number; noCompile: number; runFail: number; wmFailedMinusValid: number | undefined } {
  let programs = 0;
  let noCompile = 0;
  let runFail = 0;
  const failedS: number[] = [];
  const validS: number[] = [];
  for (const step of records) {
    for (const g of step.groups) {
      if (!g.statuses) continue;
      g.statuses.forEach((status, i) => {
        programs++;
        const s = isRejectedMessage(g.messages?.[i]) ? undefined : g.wmScores?.[i];
        if (status === 'ok') {
          if (s !== undefined) validS.push(s);
          return;
        }
        if (isCompileFailure(g.messages?.[i])) noCompile++;
        else runFail++;
        if (s !== undefined) failedS.push(s);
      });
    }
  }
  return {
    programs,
    noCompile: programs > 0 ? (100 * noCompile) / programs : 0,
    runFail: programs > 0 ? (100 * runFail) / programs : 0,
    wmFailedMinusValid: failedS.length > 0 && validS.length > 0 ? meanOf(failedS) - meanOf(validS) : undefined,
  };
}

function meanTokens(step: TrimmedStepRecord): number | undefined {
  const t = step.groups.flatMap((g) => g.programTokens);
  return t.length > 0 ? meanOf(t) : undefined;
}

export type RunMetrics = Partial<Record<MetricKey, number>>;

/** The metrics of one successful run (empty for a failed one). Percent and seconds, as in the tables. */
export function runMetrics(r: RunResult): RunMetrics {
  const m: RunMetrics = {};
  if (r.status !== 'ok') return m;
  if (r.evaluation) {
    m.heldOut = 100 * r.evaluation.avgAtK;
    m.medalRate = 100 * r.evaluation.medalRate;
    m.anyMedalRate = 100 * r.evaluation.anyMedalRate;
    m.validRunRate = 100 * r.evaluation.validRunRate;
    if (r.evaluation.ladderAvgAtK !== undefined) m.heldOutLadder = 100 * r.evaluation.ladderAvgAtK;
  }
  if (r.curve && r.curve.length > 0) {
    m.heldOutCheckpointMean = (100 * r.curve.reduce((a, c) => a + c.avgAtK, 0)) / r.curve.length;
    m.lowestValidRunRate = 100 * Math.min(...r.curve.map((c) => c.evaluation.validRunRate));
  }
  if (r.host && r.host.samples > 0) m.hostLoad = r.host.meanLoad1 / r.host.cpus;
  if (r.kind === 'train' && r.training) {
    const t = r.training;
    // a component a run file does not have (sandboxStart before it was metered) stays unmeasured
    for (const c of COST_COMPONENTS) if (t.busyMs[c] !== undefined) m[`busy.${c}`] = t.busyMs[c] / 1000;
    m.busyTotal = t.totalBusyMs / 1000;
    m.trainWall = t.wallMs / 1000;
    m.executions = t.counts.executions;
    m.worldModelForwards = t.counts.worldModelForwards;
    if (r.records.length > 0) {
      m.meanAnchorWeight = r.records.reduce((a, s) => a + s.fusion.wA, 0) / r.records.length;
      const authorsW = r.records.map((s) => s.fusion.anchorWeight).filter((w): w is number => w !== undefined);
      if (authorsW.length > 0) m.meanAuthorsWeight = authorsW.reduce((a, b) => a + b, 0) / authorsW.length;
      const first = r.records[0];
      const last = r.records[r.records.length - 1];
      const put = (key: MetricKey, v: number | undefined) => {
        if (v !== undefined) m[key] = v;
      };
      put('wmScoreFirst', meanWmScore(first));
      put('wmScoreLast', meanWmScore(last));
      put('tokensFirst', meanTokens(first));
      put('tokensLast', meanTokens(last));
      put('wmPairwiseAccuracy', wmPairwiseAccuracy(r.records));
      put('wmValidityAccuracy', wmPairwiseAccuracy(r.records, true));
      put('anchorUpdateShare', anchorUpdateShare(r.records.flatMap((s) => s.groups)) ?? undefined);
      const f = anchorFailures(r.records);
      if (f.programs > 0) {
        put('anchorNoCompile', f.noCompile);
        put('anchorRunFail', f.runFail);
      }
      put('wmFailedMinusValid', f.wmFailedMinusValid);
    }
  }
  return m;
}

export interface PresetSummary {
  preset: string;
  kind: 'train' | 'sft';
  /** Seeds with a successful run, ascending. */
  seeds: number[];
  /** Seeds whose run failed. */
  failedSeeds: number[];
  metrics: Partial<Record<MetricKey, MeanInterval>>;
}

/** Per preset (in the given order; the SFT rows first when present): mean and interval over seeds. A row's kind is its runs'. */
export function summarisePresets(runs: readonly RunResult[], order: readonly string[], level = 0.95): PresetSummary[] {
  const presets = [...new Set([...(runs.some((r) => r.preset === SFT_PRESET) ? [SFT_PRESET] : []), ...order, ...runs.map((r) => r.preset)])];
  const out: PresetSummary[] = [];
  for (const preset of presets) {
    const mine = runs.filter((r) => r.preset === preset);
    if (mine.length === 0) continue;
    const ok = mine.filter((r) => r.status === 'ok').sort((a, b) => a.seed - b.seed);
    const summary: PresetSummary = {
      preset,
      kind: mine[0].kind,
      seeds: ok.map((r) => r.seed),
      failedSeeds: mine.filter((r) => r.status !== 'ok').map((r) => r.seed).sort((a, b) => a - b),
      metrics: {},
    };
    const perRun = ok.map(runMetrics);
    for (const spec of METRICS) {
      const values = perRun.map((m) => m[spec.key]).filter((v): v is number => v !== undefined);
      if (values.length > 0 && values.length === perRun.length) summary.metrics[spec.key] = tInterval(values, level);
    }
    out.push(summary);
  }
  return out;
}

export interface PairedComparison {
  a: string;
  b: string;
  metric: MetricKey;
  /** 'ratio': a / b per seed; 'difference': a - b per seed. */
  kind: 'ratio' | 'difference';
  /** Seeds where both a and b have a successful run with the metric. */
  seeds: number[];
  perSeed: number[];
  /** Mean and interval of the per-seed values; null when no seed pairs up. */
  interval: MeanInterval | null;
  /** mean(a) / mean(b) or mean(a) - mean(b) over the paired seeds; null when none. */
  ofMeans: number | null;
}

/** a versus b seed by seed on one metric (b read on `metricB` where it differs: an SFT row has no checkpoints, only its one evaluation). */
export function pairedComparison(runs: readonly RunResult[], a: string, b: string, metric: MetricKey, kind: 'ratio' | 'difference', level = 0.95, metricB: MetricKey = metric): PairedComparison {
  const value = (preset: string, seed: number, key: MetricKey = metric): number | undefined => {
    const r = runs.find((x) => x.preset === preset && x.seed === seed && x.status === 'ok');
    return r ? runMetrics(r)[key] : undefined;
  };
  const seeds = [...new Set(runs.map((r) => r.seed))].sort((x, y) => x - y);
  const pairs: { seed: number; va: number; vb: number }[] = [];
  for (const seed of seeds) {
    const va = value(a, seed);
    const vb = value(b, seed, metricB);
    if (va === undefined || vb === undefined) continue;
    if (kind === 'ratio' && vb === 0) continue;
    pairs.push({ seed, va, vb });
  }
  const perSeed = pairs.map((p) => (kind === 'ratio' ? p.va / p.vb : p.va - p.vb));
  let ofMeans: number | null = null;
  if (pairs.length > 0) {
    const ma = meanOf(pairs.map((p) => p.va));
    const mb = meanOf(pairs.map((p) => p.vb));
    ofMeans = kind === 'ratio' ? ma / mb : ma - mb;
  }
  return { a, b, metric, kind, seeds: pairs.map((p) => p.seed), perSeed, interval: perSeed.length > 0 ? tInterval(perSeed, level) : null, ofMeans };
}

export interface CurveRow {
  preset: string;
  step: number;
  /** held-out avg@k x 100 over the seeds that have this point; step 0 is the seed's SFT row */
  heldOut: MeanInterval;
  /** cumulative training busy time after `step` steps, seconds */
  busySeconds: MeanInterval;
}

/**
 * Held-out score against training compute (the paper's headline picture), from the runs that were
 * evaluated along the way (request.evalAtSteps): per preset and step, mean and interval over seeds.
 * A seed's SFT row, when there is one, is its point at step 0 and no compute.
 */
export function curveRows(runs: readonly RunResult[], order: readonly string[], level = 0.95): CurveRow[] {
  const ok = runs.filter((r) => r.status === 'ok');
  const sft = new Map(ok.filter((r) => r.preset === SFT_PRESET && r.evaluation).map((r) => [r.seed, r.evaluation!.avgAtK]));
  const withCurve = ok.filter((r) => r.kind === 'train' && r.curve && r.curve.length > 0);
  const presets = [...new Set([...order, ...withCurve.map((r) => r.preset)])];
  const rows: CurveRow[] = [];
  for (const preset of presets) {
    const mine = withCurve.filter((r) => r.preset === preset);
    const points = new Map<number, { held: number[]; busy: number[] }>();
    const add = (step: number, avgAtK: number, busyMs: number) => {
      const p = points.get(step) ?? { held: [], busy: [] };
      p.held.push(100 * avgAtK);
      p.busy.push(busyMs / 1000);
      points.set(step, p);
    };
    for (const r of mine) {
      if (sft.has(r.seed)) add(0, sft.get(r.seed)!, 0);
      for (const c of r.curve!) add(c.step, c.avgAtK, c.trainingBusyMs);
    }
    for (const [step, p] of [...points.entries()].sort((a, b) => a[0] - b[0])) rows.push({ preset, step, heldOut: tInterval(p.held, level), busySeconds: tInterval(p.busy, level) });
  }
  return rows;
}
