// Diagnoses of a robot policy: where its actions leave the shortest path, and whether it reads its
// instruction. Each takes the policy as a BatchPolicy (modelPolicy over a checkpoint in
// `robot-bc.ts --diagnose`, or any function in tests) and returns counts, so the figures
// docs/embodied.md quotes can be regenerated from a checkpoint.
//
//   firstMoves          at t = 0 on initial states: the action against the expert's and the shortest paths;
//                       for a block as the first target, whether a wrong move heads for another block
//   demonstrationAgreement  the same against the expert over every scene of noisy demonstrations
//   onPolicyScenes      the greedy action on the scenes the policy's own sampled rollouts reach, by kind
//                       of scene, against the same on demonstration scenes
//   instructionReading  the same scenes under another task's words: does the action change as the expert's does

import { expertAction, expertStepsToGo } from './expert.ts';
import { MOVES, type Action } from './kinematics.ts';
import { initialScene, type StateSplit } from './layout.ts';
import { behaviourCloningExamples, shortestPathActions, withOtherInstructions, type PolicyExample } from './policy-data.ts';
import { HORIZON, runEpisodes, type BatchPolicy } from './rollout.ts';
import { sameCell, type Cell, type SceneState } from './scene.ts';
import { TRAIN_TASKS, goalHolds, type RobotTask } from './tasks.ts';

/** How many steps (or scenes) fell in a bucket, and at how many of them the action was a shortest-path one. */
export interface Tally {
  steps: number;
  shortestPath: number;
}

/** The scenes the diagnoses compare with: noisy demonstrations (noise 0.1 and 0.3) from 2 held-out states of each training task, every 7th scene (501 scenes). */
export function heldoutDemonstrationScenes(): PolicyExample[] {
  return behaviourCloningExamples(TRAIN_TASKS, 'heldout', 2, [0.1, 0.3]).filter((_, i) => i % 7 === 0);
}

const distance = (a: Cell, b: Cell): number => Math.abs(a.x - b.x) + Math.abs(a.y - b.y);

/** Whether a move heads the gripper closer to any of `blocks` (the cell it aims at, walls or not). */
function approaches(state: SceneState, move: Action, blocks: readonly Cell[]): boolean {
  const d = MOVES[move];
  if (d === undefined) return false;
  const to = { x: state.gripper.x + d.dx, y: state.gripper.y + d.dy };
  return blocks.some((b) => distance(b, to) < distance(b, state.gripper));
}

export interface FirstMoveDiagnosis {
  split: StateSplit;
  statesPerTask: number;
  tasks: number;
  states: number;
  /** the action is the expert's own */
  expertAction: number;
  /** the action is a shortest-path one (the expert's or a move as good) */
  shortestPath: number;
  /** 'expert->policy' for each action that is not the expert's */
  confusions: Record<string, number>;
  /** Over the states whose first goal puts a block somewhere: the actions that are not a shortest-path one. */
  wrong: {
    all: number;
    /** grasp or release */
    notAMove: number;
    /** a move that brings the gripper closer to a block other than the first goal's */
    towardAnotherBlock: number;
    towardNoOtherBlock: number;
    /** for a uniformly drawn wrong move in the same states (those with a wrong move), the expected share that does so */
    randomWrongMoveTowardAnotherBlock: number | null;
    /** wrong moves in tasks whose second goal also names a block, and how many head for that block */
    secondBlockTasks: { wrongMoves: number; towardSecondBlock: number };
  };
  /**
   * Over the states whose first goal puts a block somewhere, by where that block lies from the gripper
   * ('1 below, off column': one row down and another column; rows farther than one: 'farther'): states, and those whose action is the expert's.
   */
  byTargetPlace: Record<string, { states: number; expertAction: number }>;
}

/** Where a block lies from the gripper, in the rows and columns the first move decides between. */
export function targetPlace(gripper: Cell, block: Cell): string {
  const dy = block.y - gripper.y;
  if (Math.abs(dy) > 1) return 'farther';
  const row = dy === 0 ? 'same row' : dy < 0 ? '1 above' : '1 below';
  return `${row}, ${block.x === gripper.x ? 'same column' : 'off column'}`;
}

/** The action at t = 0 from `statesPerTask` initial states of each task on a split, in one call of the policy. */
export async function firstMoves(policy: BatchPolicy, tasks: readonly RobotTask[], split: StateSplit, statesPerTask: number): Promise<FirstMoveDiagnosis> {
  const items = tasks.flatMap((task) => Array.from({ length: statesPerTask }, (_, i) => ({ task, state: initialScene(task, split, i), t: 0 })));
  const acts = await policy(items);
  const out: FirstMoveDiagnosis = {
    split, statesPerTask, tasks: tasks.length, states: items.length, expertAction: 0, shortestPath: 0, confusions: {},
    wrong: { all: 0, notAMove: 0, towardAnotherBlock: 0, towardNoOtherBlock: 0, randomWrongMoveTowardAnotherBlock: null, secondBlockTasks: { wrongMoves: 0, towardSecondBlock: 0 } },
    byTargetPlace: {},
  };
  let randomShare = 0;
  let randomStates = 0;
  items.forEach(({ task, state }, i) => {
    const a = acts[i];
    const expert = expertAction(task, state);
    if (a === expert) out.expertAction++;
    else out.confusions[`${expert}->${a}`] = (out.confusions[`${expert}->${a}`] ?? 0) + 1;
    const [first, second] = task.goals;
    const target = first.kind === 'in' ? state.blocks.find((b) => b.color === first.block) : undefined;
    if (target) {
      const place = (out.byTargetPlace[targetPlace(state.gripper, target)] ??= { states: 0, expertAction: 0 });
      place.states++;
      if (a === expert) place.expertAction++;
    }
    const shortest = shortestPathActions(task, state);
    if (shortest.includes(a)) {
      out.shortestPath++;
      return;
    }
    if (first.kind !== 'in') return;
    out.wrong.all++;
    if (MOVES[a] === undefined) {
      out.wrong.notAMove++;
      return;
    }
    const others = state.blocks.filter((b) => b.color !== first.block);
    if (approaches(state, a, others)) out.wrong.towardAnotherBlock++;
    else out.wrong.towardNoOtherBlock++;
    const wrongMoves = (Object.keys(MOVES) as Action[]).filter((m) => !shortest.includes(m));
    randomShare += wrongMoves.filter((m) => approaches(state, m, others)).length / wrongMoves.length;
    randomStates++;
    if (second?.kind === 'in') {
      out.wrong.secondBlockTasks.wrongMoves++;
      if (approaches(state, a, state.blocks.filter((b) => b.color === second.block))) out.wrong.secondBlockTasks.towardSecondBlock++;
    }
  });
  out.wrong.randomWrongMoveTowardAnotherBlock = randomStates > 0 ? randomShare / randomStates : null;
  return out;
}

export interface ExpertAgreement {
  split: StateSplit;
  statesPerTask: number;
  noise: number;
  /** every scene of the demonstrations that needs an action */
  scenes: number;
  /** the action is the expert's own */
  expertAction: number;
}

/**
 * The action against the expert's over every scene of one noisy demonstration from each of
 * `statesPerTask` initial states of each task: the baseline the first moves are read against.
 */
export async function demonstrationAgreement(policy: BatchPolicy, tasks: readonly RobotTask[], split: StateSplit, statesPerTask: number, noise: number): Promise<ExpertAgreement> {
  const scenes = behaviourCloningExamples(tasks, split, statesPerTask, [noise]);
  const acts = await policy(scenes.map((e, t) => ({ task: e.task, state: e.state, t })));
  return { split, statesPerTask, noise, scenes: scenes.length, expertAction: scenes.filter((e, i) => acts[i] === e.action).length };
}

/** Blocks moved off their cell in `initial`, not held, and not where a goal of the task wants them. */
export function displacedBlocks(task: RobotTask, state: SceneState, initial: SceneState): number {
  return state.blocks.filter((b, j) => j !== state.held && !sameCell(b, initial.blocks[j]) && !task.goals.some((g) => g.kind === 'in' && g.block === b.color && goalHolds(state, g))).length;
}

const toGoBand = (task: RobotTask, state: SceneState): string => `togo:${Math.min(Math.floor((expertStepsToGo(task, state, HORIZON) ?? 99) / 10) * 10, 50)}`;

function add(buckets: Record<string, Tally>, key: string, ok: boolean): void {
  const v = (buckets[key] ??= { steps: 0, shortestPath: 0 });
  v.steps++;
  if (ok) v.shortestPath++;
}

const sortedKeys = (r: Record<string, Tally>): Record<string, Tally> => Object.fromEntries(Object.entries(r).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })));

export interface OnPolicyDiagnosis {
  note: string;
  episodes: number;
  successes: number;
  /** steps of the rollouts: a scene counts each time it is visited */
  steps: number;
  /** greedy action a shortest-path one, by kind of scene ('all', 'held:', 'heldUnnamed:', 'firstGoalDone:', 'stoveOnUnwanted:', 'displaced:', 't:' bands of 16, 'togo:' the expert's steps to go in bands of 10, 99 for none within the horizon) */
  buckets: Record<string, Tally>;
  /** the greedy actions that were not a shortest-path one */
  wrongActions: Record<string, number>;
  demonstrations: { scenes: number; buckets: Record<string, Tally> };
}

/**
 * Rolls the `sampled` policy out from `starts`, then asks the `greedy` one for its action at every step
 * the rollouts visited (one call), and on `demonstrations` (one call). Each step keeps its episode, so
 * 'displaced' compares a scene with its own episode's initial state.
 */
export async function onPolicyScenes(sampled: BatchPolicy, greedy: BatchPolicy, starts: readonly { task: RobotTask; initial: SceneState }[], demonstrations: readonly PolicyExample[], horizon = HORIZON): Promise<OnPolicyDiagnosis> {
  const eps = await runEpisodes(starts, sampled, horizon);
  const items = eps.flatMap((e, episode) => e.states.slice(0, -1).map((state, t) => ({ task: starts[episode].task, state, t, episode })));
  const acts = await greedy(items);
  const buckets: Record<string, Tally> = {};
  const wrongActions: Record<string, number> = {};
  items.forEach(({ task, state, t, episode }, i) => {
    const ok = shortestPathActions(task, state).includes(acts[i]);
    if (!ok) wrongActions[acts[i]] = (wrongActions[acts[i]] ?? 0) + 1;
    const named = new Set(task.goals.flatMap((g) => (g.kind === 'in' ? [g.block] : [])));
    add(buckets, 'all', ok);
    add(buckets, `held:${state.held !== null}`, ok);
    add(buckets, `heldUnnamed:${state.held !== null && !named.has(state.blocks[state.held].color)}`, ok);
    add(buckets, `firstGoalDone:${goalHolds(state, task.goals[0])}`, ok);
    add(buckets, `stoveOnUnwanted:${state.stoveOn && !task.goals.some((g) => g.kind === 'stove-on')}`, ok);
    add(buckets, `displaced:${displacedBlocks(task, state, eps[episode].states[0]) > 0}`, ok);
    add(buckets, `t:${Math.min(Math.floor(t / 16) * 16, 64)}`, ok);
    add(buckets, toGoBand(task, state), ok);
  });
  const demoActs = await greedy(demonstrations.map((e, t) => ({ task: e.task, state: e.state, t })));
  const demo: Record<string, Tally> = {};
  demonstrations.forEach((e, i) => {
    const ok = shortestPathActions(e.task, e.state).includes(demoActs[i]);
    add(demo, 'all', ok);
    add(demo, `held:${e.state.held !== null}`, ok);
    add(demo, `firstGoalDone:${goalHolds(e.state, e.task.goals[0])}`, ok);
    add(demo, toGoBand(e.task, e.state), ok);
  });
  return {
    note: 'counts are steps: a scene is counted each time a rollout visits it (a stuck rollout repeats its scene)',
    episodes: eps.length,
    successes: eps.filter((e) => e.success).length,
    steps: items.length,
    buckets: sortedKeys(buckets),
    wrongActions,
    demonstrations: { scenes: demonstrations.length, buckets: sortedKeys(demo) },
  };
}

export interface InstructionReading {
  /** scenes shown under their own instruction and another's */
  scenes: number;
  /** scenes for which no other training task fits (not counted above) */
  unpaired: number;
  expertChanges: number;
  policyChanges: number;
  /** the policy's action changes where the expert's does */
  bothChange: number;
  /** the policy's action is the expert's, under the scene's own instruction and under the other one */
  expertActionOwnInstruction: number;
  expertActionOtherInstruction: number;
}

/**
 * Each scene again under another training task's instruction (withOtherInstructions, one copy, drawn
 * with `rng`), and the policy's action under both (two calls: all own, then all other).
 */
export async function instructionReading(policy: BatchPolicy, scenes: readonly PolicyExample[], tasks: readonly RobotTask[], rng: () => number): Promise<InstructionReading> {
  const pairs: [PolicyExample, PolicyExample][] = [];
  let unpaired = 0;
  for (const e of scenes) {
    // One scene at a time, so a scene with no other task cannot shift the pairing of the rest.
    const [own, other] = withOtherInstructions([e], tasks, 1, rng);
    if (other === undefined) unpaired++;
    else pairs.push([own, other]);
  }
  const ask = (xs: PolicyExample[]) => policy(xs.map((e, t) => ({ task: e.task, state: e.state, t })));
  const a = await ask(pairs.map(([own]) => own));
  const b = await ask(pairs.map(([, other]) => other));
  const out: InstructionReading = { scenes: pairs.length, unpaired, expertChanges: 0, policyChanges: 0, bothChange: 0, expertActionOwnInstruction: 0, expertActionOtherInstruction: 0 };
  pairs.forEach(([own, other], i) => {
    const expertChanges = own.action !== other.action;
    const policyChanges = a[i] !== b[i];
    if (expertChanges) out.expertChanges++;
    if (policyChanges) out.policyChanges++;
    if (expertChanges && policyChanges) out.bothChange++;
    if (a[i] === own.action) out.expertActionOwnInstruction++;
    if (b[i] === other.action) out.expertActionOtherInstruction++;
  });
  return out;
}
