// The five claims of method.md 5 (and the one row beyond the paper), each decided from paired,
// seed-by-seed comparisons of an experiment's runs. A claim is a list of tests; each test is one
// paired comparison whose 95% interval must lie on the claim's side of a bound. The verdict:
//   holds      every test's interval lies on the claim's side;
//   fails      some test's interval lies entirely on the other side of its failure bound;
//   undecided  otherwise (an interval straddles, or one seed gives no interval);
//   not run    a preset the claim needs has no successful run.
// The verdict is arithmetic on the intervals, nothing more: the sentence around it stays in docs/results.md.
import { pairedComparison, type MetricKey, type PairedComparison } from './aggregate.ts';
import type { RunResult } from './run-result.ts';

/** The row of a larger policy's SFT evaluation (claim 4), brought in from its own folder. */
export const LARGER_SFT_PRESET = 'sft-larger';

/**
 * Held-out non-inferiority margin (points x100) for claim 2: "at least as well" holds when the
 * interval of wmrl - grpo-all-real lies above -5. The results plan sized the experiment for 5 points.
 */
export const NON_INFERIORITY_MARGIN = 5;

export type Verdict = 'holds' | 'fails' | 'undecided' | 'not run';

export interface ClaimTestSpec {
  a: string;
  b: string;
  metric: MetricKey;
  kind: 'ratio' | 'difference';
  /** The claim says a (op) b is greater than `holdsBeyond` ('greater') or less than it ('less'). */
  direction: 'greater' | 'less';
  holdsBeyond: number;
  /** The test fails when the whole interval is on the wrong side of this bound. */
  failsBeyond: number;
}

export interface ClaimSpec {
  id: string;
  statement: string;
  tests: ClaimTestSpec[];
}

export interface ClaimTest extends ClaimTestSpec {
  comparison: PairedComparison;
  verdict: Verdict;
}

export interface ClaimResult {
  id: string;
  statement: string;
  verdict: Verdict;
  tests: ClaimTest[];
  /** Presets a test needs that have no successful run. */
  missing: string[];
}

const diff = (a: string, b: string, direction: 'greater' | 'less' = 'greater', holdsBeyond = 0, failsBeyond = 0): ClaimTestSpec =>
  ({ a, b, metric: 'heldOut', kind: 'difference', direction, holdsBeyond, failsBeyond });

export const CLAIMS: readonly ClaimSpec[] = [
  {
    id: '1',
    statement: 'WMRL needs less compute than all-real GRPO (the paper: about 3x less); total busy time, GRPO over WMRL.',
    tests: [{ a: 'grpo-all-real', b: 'wmrl', metric: 'busyTotal', kind: 'ratio', direction: 'greater', holdsBeyond: 1, failsBeyond: 1 }],
  },
  {
    id: '2',
    statement: `WMRL scores at least as well as all-real GRPO held-out (within ${NON_INFERIORITY_MARGIN} points), and world-model-only scores worse.`,
    tests: [diff('wmrl', 'grpo-all-real', 'greater', -NON_INFERIORITY_MARGIN, 0), diff('world-model-only', 'grpo-all-real', 'less')],
  },
  {
    id: '3',
    statement: 'Both corrections are load-bearing (removing either lowers the held-out score), and debiasing carries more than denoising.',
    tests: [diff('wmrl', 'ablation-debias-only'), diff('wmrl', 'ablation-denoise-only'), diff('ablation-debias-only', 'ablation-denoise-only')],
  },
  {
    id: '4',
    statement: 'The small policy after WMRL beats a larger policy trained by the same SFT recipe and no RL.',
    tests: [diff('wmrl', LARGER_SFT_PRESET)],
  },
  {
    id: '5',
    statement: 'Fusion falls back toward the anchors when the score is not readable from the code: shuffling the world model raises the anchor weight w_A.',
    tests: [{ a: 'wmrl-unreadable', b: 'wmrl', metric: 'meanAnchorWeight', kind: 'difference', direction: 'greater', holdsBeyond: 0, failsBeyond: 0 }],
  },
  {
    id: 'static',
    statement: 'Beyond the paper: the free verifier (reward 0 for a program that cannot run, unscored and unrun) raises WMRL\'s held-out score.',
    tests: [diff('wmrl-static', 'wmrl')],
  },
];

/** One test's verdict from its interval. */
export function testVerdict(spec: ClaimTestSpec, c: PairedComparison): Verdict {
  if (c.seeds.length === 0) return 'not run';
  const iv = c.interval;
  if (!iv || iv.low === null || iv.high === null) return 'undecided';
  if (spec.direction === 'greater') {
    if (iv.low > spec.holdsBeyond) return 'holds';
    if (iv.high < spec.failsBeyond) return 'fails';
  } else {
    if (iv.high < spec.holdsBeyond) return 'holds';
    if (iv.low > spec.failsBeyond) return 'fails';
  }
  return 'undecided';
}

/** A claim's verdict from its tests': any failure fails it, all holding holds it. */
export function claimVerdict(verdicts: readonly Verdict[]): Verdict {
  if (verdicts.length === 0 || verdicts.includes('not run')) return 'not run';
  if (verdicts.includes('fails')) return 'fails';
  return verdicts.every((v) => v === 'holds') ? 'holds' : 'undecided';
}

export function evaluateClaims(runs: readonly RunResult[], specs: readonly ClaimSpec[] = CLAIMS, level = 0.95): ClaimResult[] {
  const ran = new Set(runs.filter((r) => r.status === 'ok').map((r) => r.preset));
  return specs.map((spec) => {
    const tests = spec.tests.map((t) => {
      const comparison = pairedComparison(runs, t.a, t.b, t.metric, t.kind, level);
      return { ...t, comparison, verdict: testVerdict(t, comparison) };
    });
    const missing = [...new Set(spec.tests.flatMap((t) => [t.a, t.b]))].filter((p) => !ran.has(p));
    return { id: spec.id, statement: spec.statement, verdict: claimVerdict(tests.map((t) => t.verdict)), tests, missing };
  });
}
