// Work rule 2's calibration as measured (bench/work-reference.ts --write): 16 reference programs of
// every kind with their counts and quiet CPU seconds. The rate itself lives in work-rule.ts; this is
// the evidence for it, read by the tests that check the rate and by the page that says what a
// calibrated second buys.
import data from './work-reference.json' with { type: 'json' };
import { WORK_RULES } from './work-rule.ts';

export interface WorkReferenceProgram {
  kind: string;
  units: number;
  /** quiet CPU seconds on the unmetered interpreter */
  seconds: number;
  source: string;
}

export interface WorkReference {
  task: string;
  measured: string;
  machine: string;
  programs: WorkReferenceProgram[];
}

export const WORK_REFERENCE: WorkReference = data;

/**
 * How many quiet seconds one calibrated second of rule 2 lasts, from the reference kind counted
 * fastest (min) to the one counted slowest (max).
 */
export function quietSecondsPerCalibratedSecond(reference: WorkReference = WORK_REFERENCE): { min: number; max: number } {
  const rates = reference.programs.map((p) => p.units / p.seconds);
  const rate = WORK_RULES[2].unitsPerSecond;
  return { min: rate / Math.max(...rates), max: rate / Math.min(...rates) };
}
