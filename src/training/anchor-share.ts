// The anchor share of a run, read and set in one place. A config holds it twice until the training
// config has one home for it (issue 47): `rho`, the accumulator's rate and what reports print, and,
// under the authors' per-step rule, `perStepAnchors.fraction`, what actually plans the anchors.
// Setting one without the other once ran a `paper-*` preset at its own share while its report printed
// the share asked for; validateTrainerConfig now refuses a config whose two copies differ.
import type { PerStepAnchors } from '../wmrl/anchors.ts';

// The two fields as TrainerConfig spells them, named here so that this file and the trainer do not import each other.
interface Shared {
  rho: number;
  perStepAnchors?: PerStepAnchors;
}

/** The share of groups a config executes for real (per step under the per-step rule, in the long run otherwise). */
export function anchorShareOf(c: Shared): number {
  return c.perStepAnchors?.fraction ?? c.rho;
}

/** The config with its anchor share set wherever its anchor rule reads it. */
export function withAnchorShare<C extends Shared>(c: C, share: number): C {
  if (!(share >= 0 && share <= 1)) throw new RangeError(`anchor share must lie in [0, 1], got ${share}`);
  return { ...c, rho: share, ...(c.perStepAnchors ? { perStepAnchors: { ...c.perStepAnchors, fraction: share } } : {}) };
}

/** Whether the two copies of the share disagree (a config that would say one share and run another). */
export function anchorShareConflict(c: Shared): string | null {
  return c.perStepAnchors && c.perStepAnchors.fraction !== c.rho
    ? `rho ${c.rho} and perStepAnchors.fraction ${c.perStepAnchors.fraction} differ: the anchors would follow the fraction while reports print rho`
    : null;
}
