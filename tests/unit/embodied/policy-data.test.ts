import { describe, expect, it } from 'vitest';
import { expertAction } from '../../../src/embodied/expert.ts';
import { initialScene } from '../../../src/embodied/layout.ts';
import { behaviourCloningExamples, exampleKey, expertRelabelled } from '../../../src/embodied/policy-data.ts';
import { runEpisode } from '../../../src/embodied/rollout.ts';
import { sceneKey } from '../../../src/embodied/scene.ts';
import { TRAIN_TASKS } from '../../../src/embodied/tasks.ts';

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
