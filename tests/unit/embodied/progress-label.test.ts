import { describe, expect, it } from 'vitest';
import { applyAction } from '../../../src/embodied/kinematics.ts';
import { initialScene } from '../../../src/embodied/layout.ts';
import { progressLabel, progressLabeller } from '../../../src/embodied/progress-label.ts';
import { demonstrate } from '../../../src/embodied/rollout.ts';
import { ALL_TASKS, taskById } from '../../../src/embodied/tasks.ts';

describe('progress labels from the scripted expert', () => {
  it('rise by exactly 1 / (expert steps) per step of a clean demonstration, from 0 to 1', () => {
    for (const t of ALL_TASKS.slice(0, 10)) {
      const e = demonstrate(t, initialScene(t, 'train', 4), 0, 1);
      const n = e.actions.length;
      const label = progressLabeller(t, e.states[0]);
      e.states.forEach((s, i) => expect(label(s)).toBeCloseTo(i / n, 12));
    }
  });

  it('fall when a finished stage is undone, and stay in [0, 1] whatever noise does', () => {
    const t = taskById('bowl-then-drawer:red');
    const start = initialScene(t, 'train', 1);
    const e = demonstrate(t, start, 0, 1);
    const placed = e.states.findIndex((s, i) => i > 0 && s.held === null && e.states[i - 1].held !== null);
    const undone = applyAction(e.states[placed], 'grasp');
    expect(progressLabel(t, start, undone)).toBeLessThan(progressLabel(t, start, e.states[placed]));
    const noisy = demonstrate(t, start, 0.6, 9);
    for (const s of noisy.states) {
      const p = progressLabel(t, start, s);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThanOrEqual(1);
    }
  });
});
