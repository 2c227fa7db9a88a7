import { describe, expect, it } from 'vitest';
import { expertAction } from '../../../src/embodied/expert.ts';
import { initialScene } from '../../../src/embodied/layout.ts';
import { behaviourCloningExamples, exampleKey, expertRelabelled, withOtherInstructions } from '../../../src/embodied/policy-data.ts';
import { runEpisode } from '../../../src/embodied/rollout.ts';
import { sceneKey } from '../../../src/embodied/scene.ts';
import { HELDOUT_TASKS, TRAIN_TASKS, succeeded } from '../../../src/embodied/tasks.ts';
import { mulberry32 } from '../../../src/primitives/random.ts';

const task = TRAIN_TASKS[0];
const initial = initialScene(task, 'train', 0);

describe('DAgger relabelling', () => {
  it('labels each scene the policy reached with the expert action, once, skipping scenes the data has', () => {
    // A policy that walks up into the table's edge and stays there: 96 actions, few distinct scenes.
    const stuck = runEpisode(task, initial, () => 'up');
    const distinct = new Set(stuck.states.slice(0, stuck.actions.length).map(sceneKey));
    expect(stuck.actions.length).toBe(96);
    expect(distinct.size).toBe(initial.gripper.y + 1);
    const seen = new Set<string>();
    const added = expertRelabelled([{ task, states: stuck.states, actions: stuck.actions }], seen);
    expect(added.length).toBe(distinct.size);
    for (const e of added) expect(e.action).toBe(expertAction(task, e.state));
    expect(seen.size).toBe(distinct.size);
    // The same episode again adds nothing; scenes already in the demonstrations are not added again.
    expect(expertRelabelled([{ task, states: stuck.states, actions: stuck.actions }], seen)).toEqual([]);
    const demos = behaviourCloningExamples([task], 'train', 1, [0.1]);
    const fromDemos = new Set(demos.map(exampleKey));
    const clean = runEpisode(task, initial, (s) => expertAction(task, s));
    expect(expertRelabelled([{ task, states: clean.states, actions: clean.actions }], fromDemos).length).toBeLessThan(clean.actions.length);
  });
});

describe('the same scenes under other instructions', () => {
  const demos = behaviourCloningExamples(TRAIN_TASKS.slice(0, 6), 'train', 1, [0.3]);

  it('keeps every example in order and adds copies under other training tasks, labelled by their expert', () => {
    const out = withOtherInstructions(demos, TRAIN_TASKS, 2, mulberry32(5));
    expect(out.filter((e, i) => i % 3 === 0)).toEqual(demos);
    const heldOut = new Set(HELDOUT_TASKS.map((t) => t.id));
    let differs = 0;
    for (let i = 0; i < demos.length; i++) {
      for (const copy of out.slice(3 * i + 1, 3 * i + 3)) {
        expect(copy.state).toBe(demos[i].state);
        expect(copy.task.id).not.toBe(demos[i].task.id);
        expect(heldOut.has(copy.task.id)).toBe(false);
        for (const c of copy.task.blocks) expect(copy.state.blocks.map((b) => b.color)).toContain(c);
        expect(succeeded(copy.task, copy.state)).toBe(false);
        expect(copy.action).toBe(expertAction(copy.task, copy.state));
        if (copy.action !== demos[i].action) differs++;
      }
    }
    // The point of it: the same scene often asks for another action under other words.
    expect(differs).toBeGreaterThan(demos.length / 2);
  });

  it('is a function of its random stream, and adds nothing with no copies', () => {
    expect(withOtherInstructions(demos, TRAIN_TASKS, 1, mulberry32(9))).toEqual(withOtherInstructions(demos, TRAIN_TASKS, 1, mulberry32(9)));
    expect(withOtherInstructions(demos, TRAIN_TASKS, 0, mulberry32(9))).toEqual(demos);
  });
});
