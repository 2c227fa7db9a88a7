// Compute accounting (method.md 5): busy time per component, measured where the work ran, and the
// wall clock. The sum of busy times is this project's analogue of the paper's GPU-hours: what the
// run would cost if every component had a machine of its own, busy only while it works. Sandbox
// time is summed over workers, so two workers running in parallel for 1 s count 2 s. Starting a fresh
// interpreter for every job is its own component (sandboxStart): real work the isolation costs, done
// ahead of the job by a spare worker, so off its latency but not free. The free verifier of
// wmrl-static is charged where it runs (verifier).
// Nothing here estimates: each number is the sum of measurements that ports and the loop report.

export const COST_COMPONENTS = ['policySampling', 'verifier', 'worldModel', 'sandbox', 'sandboxStart', 'policyUpdate'] as const;
export type CostComponent = (typeof COST_COMPONENTS)[number];

export interface CostCounts {
  /** Programs sampled from the policy. */
  programsSampled: number;
  /** Programs scored by the world model. */
  worldModelScored: number;
  /** Batched world-model forwards. */
  worldModelForwards: number;
  /** Programs executed for real. */
  executions: number;
  /** Optimiser steps. */
  updates: number;
}

export interface CostSheet {
  /** Busy time per component, ms. */
  busyMs: Record<CostComponent, number>;
  /** Sum of the busy times, ms (the GPU-hours analogue). */
  totalBusyMs: number;
  /** Wall-clock time, ms. */
  wallMs: number;
  counts: CostCounts;
}

export function emptyCost(): CostSheet {
  return {
    busyMs: { policySampling: 0, verifier: 0, worldModel: 0, sandbox: 0, sandboxStart: 0, policyUpdate: 0 },
    totalBusyMs: 0,
    wallMs: 0,
    counts: { programsSampled: 0, worldModelScored: 0, worldModelForwards: 0, executions: 0, updates: 0 },
  };
}

function assertMeasurement(name: string, ms: number): void {
  if (!(Number.isFinite(ms) && ms >= 0)) throw new RangeError(`cost: ${name} must be a finite non-negative time, got ${ms}`);
}

/** A mutable sheet the loop fills in as a step runs. */
export class CostMeter {
  private sheet: CostSheet = emptyCost();

  /** Adds busy time to one component. */
  charge(component: CostComponent, ms: number): void {
    assertMeasurement(component, ms);
    this.sheet.busyMs[component] += ms;
    this.sheet.totalBusyMs += ms;
  }

  count(counter: keyof CostCounts, n: number): void {
    if (!(Number.isInteger(n) && n >= 0)) throw new RangeError(`cost: count ${counter} must be a non-negative integer, got ${n}`);
    this.sheet.counts[counter] += n;
  }

  wall(ms: number): void {
    assertMeasurement('wall', ms);
    this.sheet.wallMs += ms;
  }

  result(): CostSheet {
    return structuredClone(this.sheet);
  }
}

/** a + b, component by component. */
export function addCosts(a: CostSheet, b: CostSheet): CostSheet {
  const out = emptyCost();
  // run files written before sandboxStart existed have no such entry: it was not measured, so 0 here
  for (const c of COST_COMPONENTS) out.busyMs[c] = (a.busyMs[c] ?? 0) + (b.busyMs[c] ?? 0);
  out.totalBusyMs = a.totalBusyMs + b.totalBusyMs;
  out.wallMs = a.wallMs + b.wallMs;
  for (const k of Object.keys(out.counts) as (keyof CostCounts)[]) out.counts[k] = a.counts[k] + b.counts[k];
  return out;
}

/** Each component's share of the total busy time (0 when nothing was charged). */
export function costShares(sheet: CostSheet): Record<CostComponent, number> {
  const out = { policySampling: 0, verifier: 0, worldModel: 0, sandbox: 0, sandboxStart: 0, policyUpdate: 0 };
  if (sheet.totalBusyMs > 0) for (const c of COST_COMPONENTS) out[c] = (sheet.busyMs[c] ?? 0) / sheet.totalBusyMs;
  return out;
}
