// `robot-bc.ts --diagnose CKPT`: the diagnoses of src/embodied/policy-diagnosis.ts on a committed
// behaviour-cloning checkpoint, with the samples and seeds docs/embodied.md quotes, on the CPU engine.
// The report names the checkpoint by its sha256, so a figure can be traced to the exact weights.

import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import { InputError, readInputBytes } from './cli-input.ts';
import { initialScene } from '../embodied/layout.ts';
import { readRobotPolicy } from '../embodied/policy-checkpoint.ts';
import { demonstrationAgreement, firstMoves, heldoutDemonstrationScenes, instructionReading, onPolicyScenes, type ExpertAgreement, type FirstMoveDiagnosis, type InstructionReading, type OnPolicyDiagnosis, type Tally } from '../embodied/policy-diagnosis.ts';
import { modelPolicy } from '../embodied/policy-model.ts';
import { TRAIN_TASKS } from '../embodied/tasks.ts';
import { CpuEngine } from '../engine/cpu/cpu-engine.ts';
import { loadCheckpoint } from '../model/checkpoint.ts';
import { mulberry32 } from '../primitives/random.ts';

/** The samples and seeds of the figures in docs/embodied.md. */
export const DIAGNOSIS_SETTINGS = {
  /** first moves of the training tasks whose first goal puts a block somewhere, from held-out states */
  firstMoveBlockStates: 32,
  /** first moves of every training task, training and held-out states */
  firstMoveAllStates: 8,
  /** the baseline for the first moves: every scene of one demonstration (noise 0.1) from 2 states of each training task, per split */
  demonstrationStates: 2,
  demonstrationNoise: 0.1,
  /** sampled rollouts from held-out states of each training task */
  rolloutStates: 3,
  rolloutTemperature: 1,
  rolloutSamplerSeed: 7,
  /** greedy decoding draws nothing; the seed is only passed on */
  greedySeed: 1,
  /** mulberry32 seed of the other instruction drawn for each scene */
  otherInstructionSeed: 3,
} as const;

export interface DiagnosisReport {
  what: string;
  checkpoint: { path: string; bytes: number; sha256: string; meta: Record<string, unknown>; config: unknown };
  settings: typeof DIAGNOSIS_SETTINGS;
  firstMoves: { blockFirstHeldout: FirstMoveDiagnosis; allTrain: FirstMoveDiagnosis; allHeldout: FirstMoveDiagnosis };
  demonstrationAgreement: { train: ExpertAgreement; heldout: ExpertAgreement };
  onPolicy: OnPolicyDiagnosis;
  instructionReading: InstructionReading;
  seconds: number;
  machine: string;
}

/** A checkpoint file read and parsed (robot-bc's --from and --diagnose); one that is cut short, altered or not a checkpoint is an InputError naming it. */
export function readCheckpointFile<T>(path: string, read: (bytes: Buffer) => T): T {
  const bytes = readInputBytes(path, 'checkpoint');
  try {
    return read(bytes);
  } catch (e) {
    throw new InputError(`${path}: ${(e as Error).message}`);
  }
}

/** Reads and checks a policy checkpoint; anything wrong with it is an InputError naming the file. */
function readCheckpoint(path: string) {
  return readCheckpointFile(path, (bytes) => ({ bytes, meta: loadCheckpoint(bytes).meta, ...readRobotPolicy(bytes) }));
}

export async function diagnoseCheckpoint(path: string, threads: number, log: (line: string) => void): Promise<DiagnosisReport> {
  const t0 = performance.now();
  const seconds = () => Math.round((performance.now() - t0) / 1000);
  const { bytes, meta, model, frames } = readCheckpoint(path);
  const s = DIAGNOSIS_SETTINGS;
  const engine = CpuEngine.fromModel(model, { numThreads: threads });
  try {
    const greedy = modelPolicy(engine, frames, { temperature: 0, seed: s.greedySeed });
    const blockFirst = TRAIN_TASKS.filter((t) => t.goals[0].kind === 'in');
    const first = {
      blockFirstHeldout: await firstMoves(greedy, blockFirst, 'heldout', s.firstMoveBlockStates),
      allTrain: await firstMoves(greedy, TRAIN_TASKS, 'train', s.firstMoveAllStates),
      allHeldout: await firstMoves(greedy, TRAIN_TASKS, 'heldout', s.firstMoveAllStates),
    };
    log(`first moves done (${seconds()} s)`);
    const agreement = {
      train: await demonstrationAgreement(greedy, TRAIN_TASKS, 'train', s.demonstrationStates, s.demonstrationNoise),
      heldout: await demonstrationAgreement(greedy, TRAIN_TASKS, 'heldout', s.demonstrationStates, s.demonstrationNoise),
    };
    log(`demonstration agreement done (${seconds()} s)`);
    const demonstrations = heldoutDemonstrationScenes();
    const starts = TRAIN_TASKS.flatMap((task) => Array.from({ length: s.rolloutStates }, (_, i) => ({ task, initial: initialScene(task, 'heldout', i) })));
    const sampled = modelPolicy(engine, frames, { temperature: s.rolloutTemperature, seed: s.rolloutSamplerSeed });
    const onPolicy = await onPolicyScenes(sampled, greedy, starts, demonstrations);
    log(`on-policy scenes done (${seconds()} s)`);
    const reading = await instructionReading(greedy, demonstrations, TRAIN_TASKS, mulberry32(s.otherInstructionSeed));
    log(`instruction reading done (${seconds()} s)`);
    // The frame tokenizer's vocabulary is long and the sha256 already pins it.
    const metaShown = Object.fromEntries(Object.entries(meta).filter(([k]) => k !== 'frameTokenizer'));
    return {
      what: 'diagnoses of a robot behaviour-cloning policy (src/embodied/policy-diagnosis.ts): greedy first moves, the greedy action on its own sampled rollouts\' scenes against demonstration scenes, and whether its action follows the instruction',
      checkpoint: { path: relative(process.cwd(), path), bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), meta: metaShown, config: model.config },
      settings: s,
      firstMoves: first,
      demonstrationAgreement: agreement,
      onPolicy,
      instructionReading: reading,
      seconds: seconds(),
      machine: '2-core shared VM, busy, no GPU',
    };
  } finally {
    await engine.dispose();
  }
}

const pct = (k: number, n: number) => (n === 0 ? 'n/a' : `${Math.round((100 * k) / n)}%`);
const tally = (t: Tally | undefined) => (t === undefined ? 'none' : `${t.shortestPath}/${t.steps} (${pct(t.shortestPath, t.steps)})`);

/** A few lines a person reads; the report has the rest. */
export function diagnosisSummary(r: DiagnosisReport): string[] {
  const f = r.firstMoves;
  const w = f.blockFirstHeldout.wrong;
  const o = r.onPolicy;
  const i = r.instructionReading;
  const random = w.randomWrongMoveTowardAnotherBlock;
  return [
    `checkpoint ${r.checkpoint.path} (sha256 ${r.checkpoint.sha256.slice(0, 16)}…)`,
    `t = 0, the expert's action: ${f.allTrain.expertAction} of ${f.allTrain.states} training states, ${f.allHeldout.expertAction} of ${f.allHeldout.states} held-out states; over every scene of their demonstrations (noise ${r.demonstrationAgreement.train.noise}): ${r.demonstrationAgreement.train.expertAction} of ${r.demonstrationAgreement.train.scenes} (${pct(r.demonstrationAgreement.train.expertAction, r.demonstrationAgreement.train.scenes)}) and ${r.demonstrationAgreement.heldout.expertAction} of ${r.demonstrationAgreement.heldout.scenes} (${pct(r.demonstrationAgreement.heldout.expertAction, r.demonstrationAgreement.heldout.scenes)})`,
    `t = 0, block first, held-out states: ${f.blockFirstHeldout.shortestPath} of ${f.blockFirstHeldout.states} shortest-path; of ${w.all} wrong, ${w.towardAnotherBlock} head for another block (a random wrong move: ${random === null ? 'n/a' : pct(random, 1)}); two-block tasks: ${w.secondBlockTasks.towardSecondBlock} of ${w.secondBlockTasks.wrongMoves} wrong moves head for the second block`,
    `t = 0, block first, held-out states, the expert's action by where the block lies: ${Object.entries(f.blockFirstHeldout.byTargetPlace).sort(([a], [b]) => a.localeCompare(b)).map(([place, p]) => `${place} ${p.expertAction} of ${p.states}`).join('; ')}`,
    `own scenes (${o.episodes} sampled rollouts, ${o.successes} succeeded; ${o.steps} steps, a scene counted each visit): shortest-path ${tally(o.buckets.all)}; demonstrations ${tally(o.demonstrations.buckets.all)} of ${o.demonstrations.scenes} scenes`,
    `  holding an unnamed block ${tally(o.buckets['heldUnnamed:true'])}; a block displaced ${tally(o.buckets['displaced:true'])}, none ${tally(o.buckets['displaced:false'])}`,
    `words: of ${i.scenes} scenes under another instruction, the expert's action changes in ${i.expertChanges}, the policy's in ${i.policyChanges} (${i.bothChange} where the expert's does); the expert's action ${pct(i.expertActionOwnInstruction, i.scenes)} under its own instruction, ${pct(i.expertActionOtherInstruction, i.scenes)} under the other`,
  ];
}
