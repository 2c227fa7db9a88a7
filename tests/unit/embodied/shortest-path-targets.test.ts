// Shortest-path targets for behaviour cloning: at every scene, the expert's own action and each other
// move after which the expert needs exactly one step fewer, so none of them counts as an error.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expertAction, expertStepsToGo } from '../../../src/embodied/expert.ts';
import { ACTIONS, applyAction } from '../../../src/embodied/kinematics.ts';
import { initialScene } from '../../../src/embodied/layout.ts';
import { behaviourCloningExamples, shortestPathActions, withShortestPathTargets } from '../../../src/embodied/policy-data.ts';
import { TRAIN_TASKS } from '../../../src/embodied/tasks.ts';

describe('shortest-path targets', () => {
  it('are exactly the actions that bring the expert one step closer, the expert\'s own first (property over demonstration scenes)', () => {
    const scenes = behaviourCloningExamples(TRAIN_TASKS.slice(0, 6), 'train', 1, [0.3]);
    fc.assert(fc.property(fc.integer({ min: 0, max: scenes.length - 1 }), (i) => {
      const { task, state } = scenes[i];
      const got = shortestPathActions(task, state);
      expect(got[0]).toBe(expertAction(task, state));
      expect(new Set(got).size).toBe(got.length);
      const base = expertStepsToGo(task, state, 400)!;
      if (base <= 1) return;
      for (const a of ACTIONS) {
        const closer = expertStepsToGo(task, applyAction(state, a), base - 1) === base - 1;
        // Only moves are offered beside the expert's own action.
        if (a !== got[0] && (a === 'grasp' || a === 'release')) expect(got).not.toContain(a);
        else expect(got.includes(a)).toBe(closer);
      }
    }), { numRuns: 60 });
  });

  it('a diagonal target offers both moves towards it; the targets repeat a scene once per action', () => {
    // Find an initial scene where the expert's first move has an equally short alternative.
    const task = TRAIN_TASKS[0];
    const i = Array.from({ length: 40 }, (_, k) => k).find((k) => shortestPathActions(task, initialScene(task, 'train', k)).length > 1);
    expect(i).toBeDefined();
    const state = initialScene(task, 'train', i!);
    const acts = shortestPathActions(task, state);
    const expanded = withShortestPathTargets([{ task, state, action: expertAction(task, state) }]);
    expect(expanded.map((e) => e.action)).toEqual(acts);
    expect(expanded.every((e) => e.state === state && e.task === task)).toBe(true);
  });
});
