// The task family: long-horizon tabletop tasks in the spirit of LIBERO-Long. Each task is two
// stages (two goals that must hold together at the end) and an instruction in words; tasks differ by
// instruction, by the blocks they name and, per episode, by the layout (layout.ts).
//
// Held out: compositions never trained on. Each stage of a held-out task is a stage of some training
// task (the same block to the same place, the drawer, the stove), only never paired this way, so doing
// it needs the policy to recombine what it learned (the held-out initial states of layout.ts are the
// other held-out axis).

import { BLOCK_COLORS, blockIndex, sameCell, type BlockColor, type Place, type SceneState } from './scene.ts';

export type Goal =
  | { kind: 'in'; block: BlockColor; place: Place }
  | { kind: 'drawer-closed' }
  | { kind: 'stove-on' };

export type TemplateId = 'bowl-then-drawer' | 'stove-then-block' | 'bowl-and-plate' | 'drawer-and-stove' | 'plate-then-drawer';

export interface RobotTask {
  /** e.g. 'bowl-and-plate:red+blue' */
  id: string;
  template: TemplateId;
  /** The blocks the instruction names, in order. */
  blocks: BlockColor[];
  instruction: string;
  /** Both stages; the order is the order a person would do them in (the expert's order). */
  goals: Goal[];
}

interface Template {
  id: TemplateId;
  /** How many blocks the instruction names. */
  arity: 0 | 1 | 2;
  instruction: (b: BlockColor[]) => string;
  goals: (b: BlockColor[]) => Goal[];
}

const TEMPLATES: readonly Template[] = [
  {
    id: 'bowl-then-drawer',
    arity: 1,
    instruction: ([a]) => `put the ${a} block in the bowl, then close the drawer`,
    goals: ([a]) => [{ kind: 'in', block: a, place: 'bowl' }, { kind: 'drawer-closed' }],
  },
  {
    id: 'stove-then-block',
    arity: 1,
    // The stove is switched on with an empty gripper and bare plate, so it comes first.
    instruction: ([a]) => `turn on the stove and put the ${a} block on it`,
    goals: ([a]) => [{ kind: 'stove-on' }, { kind: 'in', block: a, place: 'stove' }],
  },
  {
    id: 'bowl-and-plate',
    arity: 2,
    instruction: ([a, b]) => `put the ${a} block in the bowl and the ${b} block on the plate`,
    goals: ([a, b]) => [{ kind: 'in', block: a, place: 'bowl' }, { kind: 'in', block: b, place: 'plate' }],
  },
  {
    id: 'drawer-and-stove',
    arity: 0,
    instruction: () => 'close the drawer and turn on the stove',
    goals: () => [{ kind: 'drawer-closed' }, { kind: 'stove-on' }],
  },
  {
    id: 'plate-then-drawer',
    arity: 1,
    instruction: ([a]) => `put the ${a} block on the plate, then close the drawer`,
    goals: ([a]) => [{ kind: 'in', block: a, place: 'plate' }, { kind: 'drawer-closed' }],
  },
];

function taskOf(t: Template, blocks: BlockColor[]): RobotTask {
  return { id: blocks.length ? `${t.id}:${blocks.join('+')}` : t.id, template: t.id, blocks, instruction: t.instruction(blocks), goals: t.goals(blocks) };
}

/** Every task of the family (25), in a fixed order. */
export const ALL_TASKS: readonly RobotTask[] = TEMPLATES.flatMap((t) => {
  if (t.arity === 0) return [taskOf(t, [])];
  if (t.arity === 1) return BLOCK_COLORS.map((a) => taskOf(t, [a]));
  return BLOCK_COLORS.flatMap((a) => BLOCK_COLORS.filter((b) => b !== a).map((b) => taskOf(t, [a, b])));
});

/** Compositions held out of training (each of their stages is a stage of a training task). */
export const HELDOUT_TASK_IDS: readonly string[] = [
  'bowl-then-drawer:yellow',
  'bowl-and-plate:blue+red',
  'bowl-and-plate:yellow+green',
  'bowl-and-plate:green+blue',
  'plate-then-drawer:red',
];

export const TRAIN_TASKS: readonly RobotTask[] = ALL_TASKS.filter((t) => !HELDOUT_TASK_IDS.includes(t.id));
export const HELDOUT_TASKS: readonly RobotTask[] = ALL_TASKS.filter((t) => HELDOUT_TASK_IDS.includes(t.id));

export function taskById(id: string): RobotTask {
  const t = ALL_TASKS.find((x) => x.id === id);
  if (!t) throw new RangeError(`unknown robot task "${id}" (known: ${ALL_TASKS.map((x) => x.id).join(', ')})`);
  return t;
}

/** Whether one goal holds in a scene. A block in the gripper is in nothing. */
export function goalHolds(state: SceneState, goal: Goal): boolean {
  switch (goal.kind) {
    case 'drawer-closed':
      return state.drawer.open === 0;
    case 'stove-on':
      return state.stoveOn;
    case 'in': {
      const i = blockIndex(state, goal.block);
      return i !== state.held && sameCell(state.blocks[i], state.places[goal.place]);
    }
  }
}

/** The sparse success: every goal of the task holds at once. */
export function succeeded(task: RobotTask, state: SceneState): boolean {
  return task.goals.every((g) => goalHolds(state, g));
}
