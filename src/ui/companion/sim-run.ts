// Sections 4 and 5 of the companion: a simulated training run. The programs' true scores and the
// synthetic world model's scores come from sim-world-model.ts; everything the method does with them
// (anchor plan, calibration, rewards, advantages, fusion, bias/noise tracking) is the project's real
// MethodState. No policy is trained: the score distribution does not move, only the method's
// estimates do, which is what these figures are about.

import type { AdvantageMode } from '../../wmrl/advantages.ts';
import type { FusionMode } from '../../wmrl/fusion.ts';
import { SCALED_ANCHOR_WEIGHT, SCALED_BINNED } from '../../training/presets.ts';
import { MethodState } from '../../wmrl/step.ts';
import { deriveSeed, mulberry32 } from '../../primitives/random.ts';
import { sampleGroup, type SimSetup } from './sim-world-model.ts';

export interface SimRunConfig extends SimSetup {
  fusion: FusionMode;
  debias: boolean;
  advantageMode: AdvantageMode;
}

export interface SimRunStep {
  step: number;
  anchorGroups: number;
  wA: number;
  wW: number;
  vA: number | null;
  vW: number | null;
  r: number | null;
  lambda: number;
  weightsReused: boolean;
  biasSlope: number | null;
  errorRealCorrelation: number | null;
  noise: number | null;
  knots: number;
  pairs: number;
  wmZeroSpread: number;
  /** 'anchor-weight' runs: the weight w on anchor advantages; null in the other modes. */
  anchorWeight: number | null;
  /** The anchor groups' share of the update's weight: w_A ('ivw'), w K_A / (w K_A + K_W) ('anchor-weight'), K_A / B otherwise. */
  anchorShare: number;
}

/** The anchors' share of the step's loss weight, whatever the rule (each group counted with its stream weight). */
function anchorShareOf(mode: FusionMode, d: { anchorGroups: number; wmGroups: number; wA: number; anchorWeight?: number }): number {
  const kA = d.anchorGroups;
  const kW = d.wmGroups;
  if (kA + kW === 0) return 0;
  if (mode === 'ivw') return kA === 0 ? 0 : d.wA;
  const w = mode === 'anchor-weight' ? (d.anchorWeight ?? 1) : 1;
  return (w * kA) / (w * kA + kW);
}

/**
 * Runs the real MethodState over `steps` simulated steps. Programs are drawn from
 * mulberry32(deriveSeed(seed, step)) for every group, anchors or not, so two runs with the same seed
 * and world model see the same programs whatever their fusion mode or debiasing: a paired comparison.
 */
export function simulateRun(cfg: SimRunConfig): SimRunStep[] {
  const method = new MethodState({
    rho: cfg.rho,
    seed: cfg.seed,
    advantageMode: cfg.advantageMode,
    debias: cfg.debias,
    // 'anchor-weight' as the paper-wmrl preset runs it: with the binned calibrator, both with their scaled constants
    fusion: { mode: cfg.fusion, ...(cfg.fusion === 'anchor-weight' ? { anchorWeight: SCALED_ANCHOR_WEIGHT } : {}) },
    ...(cfg.fusion === 'anchor-weight' ? { binned: SCALED_BINNED } : {}),
  });
  const out: SimRunStep[] = [];
  for (let t = 0; t < cfg.steps; t++) {
    const plan = method.plan(cfg.groups);
    const rng = mulberry32(deriveSeed(cfg.seed, t));
    const s: number[][] = [];
    const y: (number[] | null)[] = [];
    for (let g = 0; g < cfg.groups; g++) {
      const group = sampleGroup(rng, cfg.groupSize, cfg.wm);
      s.push(group.s);
      y.push(plan.isAnchor[g] ? group.y : null);
    }
    const res = method.score(s, y);
    const d = res.diagnostics;
    out.push({
      step: res.step,
      anchorGroups: d.anchorGroups,
      wA: d.wA,
      wW: d.wW,
      vA: d.vA,
      vW: d.vW,
      r: d.r,
      lambda: d.lambda,
      weightsReused: d.weightsReused,
      biasSlope: res.theory.biasSlope,
      errorRealCorrelation: res.theory.errorRealCorrelation,
      noise: res.theory.noise,
      knots: res.knots.x.length,
      pairs: res.calibrationPairs,
      wmZeroSpread: d.wmZeroSpreadFraction,
      anchorWeight: d.anchorWeight ?? null,
      anchorShare: anchorShareOf(cfg.fusion, d),
    });
  }
  return out;
}

/** Mean of a per-step quantity over the last `fraction` of the run (steps with a value only). */
export function lateMean(run: readonly SimRunStep[], pick: (s: SimRunStep) => number | null, fraction = 0.5): number | null {
  const from = Math.floor(run.length * (1 - fraction));
  let sum = 0;
  let n = 0;
  for (let i = from; i < run.length; i++) {
    const v = pick(run[i]);
    if (v === null || !Number.isFinite(v)) continue;
    sum += v;
    n++;
  }
  return n === 0 ? null : sum / n;
}

export interface FallbackPoint {
  readability: number;
  /** Late mean w_A of an 'ivw' run, late mean lambda of a 'ppi' run, on the same programs. */
  wA: number | null;
  lambda: number | null;
  /** Late mean anchors' share of the update under the authors' anchor weight, on the same programs. */
  authorsShare: number | null;
}

/**
 * Fallback toward the anchors (method.md claim 5): the same run at several readabilities, reporting the
 * late anchor weight of inverse-variance fusion and the late PPI lambda.
 */
export function fallbackSweep(base: SimRunConfig, readabilities: readonly number[]): FallbackPoint[] {
  return readabilities.map((readability) => {
    const wm = { ...base.wm, readability };
    const ivw = simulateRun({ ...base, wm, fusion: 'ivw' });
    const ppi = simulateRun({ ...base, wm, fusion: 'ppi' });
    const authors = simulateRun({ ...base, wm, fusion: 'anchor-weight' });
    return { readability, wA: lateMean(ivw, (s) => s.wA), lambda: lateMean(ppi, (s) => s.lambda), authorsShare: lateMean(authors, (s) => s.anchorShare) };
  });
}

/** The runs sections 4 and 5 show, on the same programs: ivw, ppi and the authors' anchor weight with debiasing, ivw without. */
export interface RunComparison {
  ivw: SimRunStep[];
  ppi: SimRunStep[];
  authors: SimRunStep[];
  ivwNoDebias: SimRunStep[];
}

export function compareRuns(base: Omit<SimRunConfig, 'fusion' | 'debias'>): RunComparison {
  return {
    ivw: simulateRun({ ...base, fusion: 'ivw', debias: true }),
    ppi: simulateRun({ ...base, fusion: 'ppi', debias: true }),
    authors: simulateRun({ ...base, fusion: 'anchor-weight', debias: true }),
    ivwNoDebias: simulateRun({ ...base, fusion: 'ivw', debias: false }),
  };
}
