// How the sandbox counts a program's work, by version. A run file and a stored outcome record the
// rule they ran under; an experiment keeps the rule its plan names, and new runs use WORK_RULE.
// docs/sandbox.md, "The work budget".

export type WorkRule = 1 | 2;

/** The rule new runs use. */
export const WORK_RULE: WorkRule = 2;

/**
 * Rule 1 (to 2026-12-05): CPython in Pyodide checks for an interrupt once every WORK_UNIT_CHECKS
 * "eval breaker" checks (loop back-edges and Python function starts, never inside C functions);
 * the worker counts those checks. Work inside one C call (`sorted`, `sum`, string building) is not
 * counted, and big-int arithmetic is overcharged, so the count per quiet second spans 1,000,000x
 * across program kinds (issue 48). Kept for experiments planned under it.
 */
export const WORK_UNIT_CHECKS = 50;

export interface WorkRuleSpec {
  /** Units per calibrated second: a budget of T seconds is T x this many units. */
  unitsPerSecond: number;
  /** What one unit is, for messages and docs. */
  unit: string;
}

export const WORK_RULES: Record<WorkRule, WorkRuleSpec> = {
  1: {
    // The median, over the committed policy's held-out samples that ran ok for 0.2 s or more (37
    // programs), of their count over the seconds recorded with them (bench/work-calibration.ts).
    unitsPerSecond: 33_000,
    unit: `${WORK_UNIT_CHECKS} loop iterations or Python function calls`,
  },
  2: {
    // The median, over 16 reference programs of every kind (work-reference.json beside this file,
    // written by bench/work-reference.ts: plain loops to the toolkit's models), of their count over
    // their quiet CPU seconds (263.7 M/s; three runs with the machine otherwise idle, 2-core AMD EPYC
    // VM, Node 20). Kinds range from 0.65x (`sorted`) to 2.43x (big-int arithmetic) of the rate below.
    unitsPerSecond: 260_000_000,
    unit: 'one loop iteration or function call of the interpreter\'s compiled code (C included), or 256 bytes copied or filled',
  },
};

/** Work units a job with budget `timeoutMs` (calibrated milliseconds) may use. */
export function workBudgetFor(timeoutMs: number, rule: WorkRule = WORK_RULE): number {
  return Math.max(1, Math.round((timeoutMs / 1000) * WORK_RULES[rule].unitsPerSecond));
}

/**
 * Under rule 2 the interpreter itself traps once a program passes its budget by this fraction:
 * the stop for C code that never looks for an interrupt (a long `sorted`). Below it, Python code is
 * stopped with KeyboardInterrupt at its next check, as under rule 1.
 */
export const HARD_STOP_FRACTION = 0.1;

/** The fuel a rule-2 run starts with: past it the interpreter traps. */
export function hardStopFor(budget: number): number {
  return Math.ceil(budget * (1 + HARD_STOP_FRACTION)) + 1;
}

/** The message a run over its work budget ends with. */
export function workLimitMessage(budget: number, rule: WorkRule = WORK_RULE): string {
  const spec = WORK_RULES[rule];
  return `work limit reached: the program did more than ${budget} work units (a unit is ${spec.unit}; ${(budget / spec.unitsPerSecond).toFixed(1)} calibrated seconds of work) (workBudget)`;
}

/**
 * Outcomes measured under the wall-clock budget (before rule 1) or under rule 1 that finished within
 * this fraction of their budget are trusted under rule 2 without running again: no reference kind
 * counts faster than MAX_RATE_OVER_CALIBRATED x the calibrated rate on a quiet machine (2.43x
 * measured; a loaded machine only makes the recorded seconds longer), so such a run used at most
 * half its budget; the factor 2 is a margin for a program faster per second than any reference kind.
 */
export const MAX_RATE_OVER_CALIBRATED = 3;
export const LEGACY_TRUSTED_FRACTION = 1 / (2 * MAX_RATE_OVER_CALIBRATED);
