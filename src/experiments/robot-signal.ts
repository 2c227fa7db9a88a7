// How far a robot run's training signal is from the success it is meant to raise, read from the step
// records' groups (descriptive, no test). In a group the method did not execute for real (not an anchor)
// the reward is the calibrated progress score; the simulator's success is recorded beside it as a
// diagnostic the method never saw. Three readings over those groups:
// - how often the reward puts a success above a failure of the same group (1: it orders them as the
//   success does; 0.5: no better than chance);
// - how many of the nonzero advantages of a group with both outcomes point the other way from the
//   rollout's success against the group's success rate;
// - how many groups where every rollout succeeds or every one fails (no signal for GRPO on the
//   success) still get a nonzero advantage.
// Anchor groups are left out: their reward is the success itself.

import type { RobotRunResult } from '../embodied/robot-run.ts';

/** Advantages are on the scale of a standard deviation: below this they are rounding left by the normalisation, not a signal. */
const NOISE = 1e-9;
const moves = (a: number): boolean => Math.abs(a) > NOISE;

export interface RobotSignal {
  /** Non-anchor groups over the run. */
  groups: number;
  /** P(reward of a success > reward of a failure) over such pairs within a group, ties counting half; null without a mixed group. */
  successRanked: number | null;
  /** Share of the nonzero advantages (above rounding) in mixed groups whose sign is not that of (success - group success rate); null without one. */
  wrongSign: number | null;
  /** Groups whose rollouts all succeed or all fail, and those of them with a nonzero advantage (above rounding). */
  flatGroups: number;
  flatWithAdvantage: number;
}

export function robotSignal(run: Pick<RobotRunResult, 'steps'>): RobotSignal {
  let groups = 0, pairs = 0, ranked = 0, signed = 0, wrong = 0, flatGroups = 0, flatWithAdvantage = 0;
  for (const step of run.steps) {
    for (const g of step.groups ?? []) { // a hand-made record (a test's) may have none
      if (g.anchor) continue;
      groups++;
      const wins = g.success.filter(Boolean).length;
      if (wins === 0 || wins === g.success.length) {
        flatGroups++;
        if (g.advantages.some(moves)) flatWithAdvantage++;
        continue;
      }
      const rate = wins / g.success.length;
      g.success.forEach((si, i) => {
        if (moves(g.advantages[i])) {
          signed++;
          if (g.advantages[i] > 0 !== (si ? 1 : 0) > rate) wrong++;
        }
        if (!si) return;
        g.success.forEach((sj, j) => {
          if (sj) return;
          pairs++;
          ranked += g.rewards[i] > g.rewards[j] ? 1 : g.rewards[i] === g.rewards[j] ? 0.5 : 0;
        });
      });
    }
  }
  return { groups, successRanked: pairs > 0 ? ranked / pairs : null, wrongSign: signed > 0 ? wrong / signed : null, flatGroups, flatWithAdvantage };
}
