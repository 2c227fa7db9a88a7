import { describe, expect, it } from 'vitest';
import { EgocentricFrameTokens } from '../../../src/embodied/egocentric-frame-tokens.ts';
import { expertAction } from '../../../src/embodied/expert.ts';
import { FrameTokenizer } from '../../../src/embodied/frame-tokens.ts';
import { ACTIONS, type Action } from '../../../src/embodied/kinematics.ts';
import { initialScene } from '../../../src/embodied/layout.ts';
import { shortestPathActions } from '../../../src/embodied/policy-data.ts';
import { demonstrationAgreement, displacedBlocks, firstMoves, heldoutDemonstrationScenes, instructionReading, onPolicyScenes, targetPlace } from '../../../src/embodied/policy-diagnosis.ts';
import { modelPolicy, policyPrompt } from '../../../src/embodied/policy-model.ts';
import { renderScene } from '../../../src/embodied/renderer.ts';
import type { BatchPolicy } from '../../../src/embodied/rollout.ts';
import { GRID, cloneScene, passable, placeAt, restingBlockAt, sameCell, type SceneState } from '../../../src/embodied/scene.ts';
import { ALL_TASKS, TRAIN_TASKS } from '../../../src/embodied/tasks.ts';
import { CpuEngine } from '../../../src/engine/cpu/cpu-engine.ts';
import { namedConfig } from '../../../src/model/config.ts';
import { createModel } from '../../../src/model/init.ts';
import { mulberry32 } from '../../../src/primitives/random.ts';

const expert: BatchPolicy = async (items) => items.map((it) => expertAction(it.task, it.state));
/** Acts on the scene alone: the same action whatever the instruction. */
const deaf: BatchPolicy = async (items) => items.map((it) => ACTIONS[(7 * it.state.gripper.x + it.state.gripper.y) % ACTIONS.length]);
const always = (a: Action): BatchPolicy => async (items) => items.map(() => a);

const blockFirst = TRAIN_TASKS.filter((t) => t.goals[0].kind === 'in');
const scenes = heldoutDemonstrationScenes();
const someScenes = scenes.filter((_, i) => i % 10 === 0);

describe('policy diagnoses', () => {
  it('use the 501 demonstration scenes the docs quote', () => {
    expect(scenes).toHaveLength(501);
  });

  it('first moves: the expert makes no wrong move; a policy that only grasps makes nothing but non-moves', async () => {
    const ok = await firstMoves(expert, blockFirst, 'heldout', 2);
    expect(ok.states).toBe(2 * blockFirst.length);
    expect(ok.expertAction).toBe(ok.states);
    expect(ok.shortestPath).toBe(ok.states);
    expect(ok.wrong.all).toBe(0);
    expect(ok.confusions).toEqual({});
    expect(ok.wrong.randomWrongMoveTowardAnotherBlock).toBeNull();

    const grasp = await firstMoves(always('grasp'), blockFirst, 'heldout', 2);
    expect(grasp.shortestPath).toBe(0);
    expect(grasp.wrong).toMatchObject({ all: grasp.states, notAMove: grasp.states, towardAnotherBlock: 0, towardNoOtherBlock: 0 });
    expect(Object.values(grasp.confusions).reduce((a, b) => a + b, 0)).toBe(grasp.states);
  });

  it('agreement over every scene of the demonstrations: the expert agrees everywhere, a grasp-only policy only where the expert grasps', async () => {
    const tasks = TRAIN_TASKS.slice(0, 3);
    const ok = await demonstrationAgreement(expert, tasks, 'train', 1, 0.1);
    expect(ok.scenes).toBeGreaterThan(10);
    expect(ok.expertAction).toBe(ok.scenes);
    const grasp = await demonstrationAgreement(always('grasp'), tasks, 'train', 1, 0.1);
    expect(grasp.scenes).toBe(ok.scenes);
    expect(grasp.expertAction).toBeGreaterThan(0);
    expect(grasp.expertAction).toBeLessThan(grasp.scenes);
    // the held-out split draws other initial states
    expect((await demonstrationAgreement(expert, tasks, 'heldout', 1, 0.1)).split).toBe('heldout');
  });

  it('first moves by where the first target block lies: every block-first state counted once, the expert right in each place', async () => {
    expect(targetPlace({ x: 3, y: 3 }, { x: 5, y: 4 })).toBe('1 below, off column');
    expect(targetPlace({ x: 3, y: 3 }, { x: 3, y: 2 })).toBe('1 above, same column');
    expect(targetPlace({ x: 3, y: 3 }, { x: 0, y: 3 })).toBe('same row, off column');
    expect(targetPlace({ x: 3, y: 3 }, { x: 3, y: 6 })).toBe('farther');
    const ok = await firstMoves(expert, blockFirst, 'heldout', 8);
    const places = Object.values(ok.byTargetPlace);
    expect(places.reduce((n, p) => n + p.states, 0)).toBe(ok.states);
    for (const p of places) expect(p.expertAction).toBe(p.states);
    expect(Object.keys(ok.byTargetPlace).length).toBeGreaterThan(1);
    const grasp = await firstMoves(always('grasp'), blockFirst, 'heldout', 8);
    expect(Object.values(grasp.byTargetPlace).every((p) => p.expertAction === 0)).toBe(true);
    // a task whose first goal is not a block has no place
    const stoveFirst = TRAIN_TASKS.filter((t) => t.goals[0].kind !== 'in');
    expect((await firstMoves(expert, stoveFirst, 'heldout', 2)).byTargetPlace).toEqual({});
  });

  it('first moves: a policy that heads for another block whenever it can beats the random wrong move\'s share', async () => {
    // Wrong on purpose: the first non-shortest move that brings the gripper closer to a block the first goal does not name, else any non-shortest move.
    const distracted: BatchPolicy = async (items) => items.map(({ task, state }) => {
      const wrong = (['up', 'down', 'left', 'right'] as const).filter((m) => !shortestPathActions(task, state).includes(m));
      const first = task.goals[0];
      const others = state.blocks.filter((b) => first.kind === 'in' && b.color !== first.block);
      const d = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] } as const;
      const toward = wrong.find((m) => others.some((b) => Math.abs(b.x - state.gripper.x - d[m][0]) + Math.abs(b.y - state.gripper.y - d[m][1]) < Math.abs(b.x - state.gripper.x) + Math.abs(b.y - state.gripper.y)));
      return toward ?? wrong[0];
    });
    const r = await firstMoves(distracted, blockFirst, 'heldout', 4);
    expect(r.wrong.all).toBe(r.states);
    expect(r.wrong.notAMove).toBe(0);
    expect(r.wrong.towardAnotherBlock + r.wrong.towardNoOtherBlock).toBe(r.states);
    const random = r.wrong.randomWrongMoveTowardAnotherBlock!;
    expect(random).toBeGreaterThan(0);
    expect(random).toBeLessThan(1);
    expect(r.wrong.towardAnotherBlock / r.states).toBeGreaterThan(random);
    // Only the tasks whose second goal names a block are counted there.
    const twoBlock = blockFirst.filter((t) => t.goals[1].kind === 'in').length;
    expect(r.wrong.secondBlockTasks.wrongMoves).toBe(4 * twoBlock);
  });

  it('on-policy scenes: the expert agrees with the shortest path on every step, its own and the demonstrations\'', async () => {
    const starts = TRAIN_TASKS.slice(0, 3).map((task) => ({ task, initial: initialScene(task, 'heldout', 0) }));
    const r = await onPolicyScenes(expert, expert, starts, someScenes);
    expect(r.successes).toBe(3);
    expect(r.buckets.all).toEqual({ steps: r.steps, shortestPath: r.steps });
    expect(r.demonstrations.buckets.all).toEqual({ steps: someScenes.length, shortestPath: someScenes.length });
    expect(r.wrongActions).toEqual({});
    // Each scene falls in exactly one bucket of each kind.
    for (const kind of ['held:', 'heldUnnamed:', 'firstGoalDone:', 'stoveOnUnwanted:', 'displaced:', 't:', 'togo:']) {
      const n = Object.entries(r.buckets).filter(([k]) => k.startsWith(kind)).reduce((a, [, v]) => a + v.steps, 0);
      expect(n, kind).toBe(r.steps);
    }
  });

  it('displaced: a moved block counts, unless it is held or where a goal wants it', () => {
    const task = blockFirst[0];
    const start = initialScene(task, 'heldout', 0);
    expect(displacedBlocks(task, start, start)).toBe(0);
    const j = start.blocks.findIndex((b) => !task.blocks.includes(b.color));
    const moved = withBlockMoved(start, j);
    expect(displacedBlocks(task, moved, start)).toBe(1);
    expect(displacedBlocks(task, { ...moved, held: j, gripper: { ...moved.blocks[j] } }, start)).toBe(0);
    const first = task.goals[0];
    if (first.kind !== 'in') throw new Error('block-first task expected');
    const k = start.blocks.findIndex((b) => b.color === first.block);
    const done = cloneScene(start);
    done.blocks[k] = { ...done.blocks[k], ...start.places[first.place] };
    expect(displacedBlocks(task, done, start)).toBe(0);
  });

  it('displaced: each step is compared with its own episode\'s start, not another episode of the task with the same places', async () => {
    // Two episodes of one task, the same places, one block elsewhere: matching a step to a start by the
    // places picks the first episode for both, and the second's untouched scenes look displaced.
    const task = blockFirst[0];
    const a = initialScene(task, 'heldout', 0);
    const b = withBlockMoved(a, a.blocks.findIndex((x) => !task.blocks.includes(x.color)));
    expect(displacedBlocks(task, b, a)).toBe(1);
    // 'release' with nothing held changes nothing: every step of each episode is its own start.
    const r = await onPolicyScenes(always('release'), always('release'), [{ task, initial: a }, { task, initial: b }], someScenes.slice(0, 3), 5);
    expect(r.steps).toBe(10);
    expect(r.buckets['displaced:false']).toEqual({ steps: 10, shortestPath: 0 });
    expect(r.buckets['displaced:true']).toBeUndefined();
  });

  it('instruction reading: the expert changes its action exactly where it should; a policy deaf to the words never does', async () => {
    const r = await instructionReading(expert, someScenes, TRAIN_TASKS, mulberry32(3));
    expect(r.scenes + r.unpaired).toBe(someScenes.length);
    expect(r.expertChanges).toBeGreaterThan(0);
    expect(r).toMatchObject({ policyChanges: r.expertChanges, bothChange: r.expertChanges, expertActionOwnInstruction: r.scenes, expertActionOtherInstruction: r.scenes });

    const d = await instructionReading(deaf, someScenes, TRAIN_TASKS, mulberry32(3));
    expect(d.expertChanges).toBe(r.expertChanges);
    expect(d).toMatchObject({ policyChanges: 0, bothChange: 0 });
  });

  it('run on a model through modelPolicy: every count adds up', async () => {
    const frames = new EgocentricFrameTokens(FrameTokenizer.build(ALL_TASKS.map((t) => t.instruction), someScenes.map((e) => renderScene(e.state))), true);
    const longest = Math.max(...someScenes.map((e) => policyPrompt(frames, e.task, e.state).length)) + 16;
    const engine = CpuEngine.fromModel(createModel(namedConfig('mini', { vocabSize: frames.vocabSize, contextLength: 8 * Math.ceil(longest / 8), nLayers: 1 }), mulberry32(1)));
    try {
      const greedy = modelPolicy(engine, frames, { temperature: 0, seed: 1 });
      const sampled = modelPolicy(engine, frames, { temperature: 1, seed: 7 });
      const first = await firstMoves(greedy, blockFirst.slice(0, 2), 'heldout', 2);
      expect(first.states).toBe(4);
      expect(first.shortestPath + first.wrong.all).toBe(4);
      const starts = TRAIN_TASKS.slice(0, 2).map((task) => ({ task, initial: initialScene(task, 'heldout', 0) }));
      const own = await onPolicyScenes(sampled, greedy, starts, someScenes.slice(0, 6), 3);
      expect(own.steps).toBe(6);
      expect(own.buckets['t:0'].steps).toBe(6);
      expect(own.buckets.all.shortestPath + Object.values(own.wrongActions).reduce((a, b) => a + b, 0)).toBe(6);
      const words = await instructionReading(greedy, someScenes.slice(0, 6), TRAIN_TASKS, mulberry32(3));
      expect(words.scenes + words.unpaired).toBe(6);
      expect(words.bothChange).toBeLessThanOrEqual(Math.min(words.policyChanges, words.expertChanges));
    } finally {
      await engine.dispose();
    }
  }, 60_000);
});

/** The scene with block j on a free table cell elsewhere (no place, no block, not the gripper, not the drawer's row). */
function withBlockMoved(s: SceneState, j: number): SceneState {
  for (let y = 0; y < GRID; y++) {
    for (let x = 1; x < GRID; x++) {
      const c = { x, y };
      if (y === s.drawer.row || !passable(s, c) || placeAt(s, c) !== null || restingBlockAt(s, c) >= 0 || sameCell(s.gripper, c)) continue;
      const out = cloneScene(s);
      out.blocks[j] = { ...out.blocks[j], x, y };
      return out;
    }
  }
  throw new Error('no free cell');
}
