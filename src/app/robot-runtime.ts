// The robot domain's models in the page: the checkpoints from public/models/robot (each checked
// against the manifest) loaded into the robot worker, which runs the behaviour-cloning policy and
// the frozen progress model. The expert needs no model and runs on the page's thread.
import type { Action } from '../embodied/kinematics.ts';
import { initialScene } from '../embodied/layout.ts';
import { replay } from '../embodied/rollout.ts';
import type { SceneState } from '../embodied/scene.ts';
import { taskById } from '../embodied/tasks.ts';
import { startRobotWorker, type RobotWorkerHandle } from '../workers/robot-client.ts';
import type { RobotPolicyOptions, RobotStart, RobotWorkerApi, RobotWorkerInfo } from '../workers/robot-api.ts';
import type { RobotStepProgress, RobotStepResult, RobotTrainerConfig } from '../embodied/robot-trainer.ts';
import * as Comlink from 'comlink';
import { RobotModelFiles } from './robot-models.ts';

export interface PolicyEpisode {
  states: SceneState[];
  actions: Action[];
  success: boolean;
}

export interface RobotRuntime {
  info: RobotWorkerInfo;
  /** One episode of the behaviour-cloning policy from a start; `onStep` hears each decoded step. */
  policyRollout(start: RobotStart, options: RobotPolicyOptions, onStep?: (t: number) => void): Promise<PolicyEpisode>;
  /** The progress model's raw scores of a rollout's 8 scored frames. */
  progressScores(taskId: string, states: readonly SceneState[]): Promise<number[]>;
  /** The RL loop (RobotTrainer) in the worker, on its own copy of the committed policy. */
  train: {
    start(config: RobotTrainerConfig): Promise<void>;
    step(onProgress?: (p: RobotStepProgress) => void): Promise<RobotStepResult>;
    stop(): Promise<void>;
  };
  /** Greedy held-out evaluation of the run's policy (the committed one before any run). */
  evaluate: RobotWorkerApi['evaluate'];
  dispose(): void;
}

/** Fetches and checks both checkpoints, starts the worker and loads them; `onStage` hears what it is doing. */
export async function startRobotRuntime(onStage: (what: string) => void = () => {}): Promise<RobotRuntime> {
  onStage('checking the models against public/models/robot/manifest.json');
  const files = await RobotModelFiles.open();
  const [policy, progress] = await Promise.all([files.bytes('policy'), files.bytes('progress')]);
  onStage('loading the policy and the progress model into the worker');
  const handle: RobotWorkerHandle = startRobotWorker();
  let info: RobotWorkerInfo;
  try {
    const own = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
    info = await handle.load({ policy: own(policy), progress: own(progress) });
  } catch (e) {
    handle.terminate();
    throw e;
  }
  return {
    info,
    async policyRollout(start, options, onStep) {
      const [got] = await handle.api.policyRollouts([start], options, onStep ? Comlink.proxy(onStep) : undefined);
      // The worker sends actions only; the scenes are replayed here, exactly (integer physics).
      const task = taskById(start.taskId);
      return { states: replay(initialScene(task, start.split, start.index), got.actions), actions: got.actions, success: got.success };
    },
    async progressScores(taskId, states) {
      const [scores] = await handle.api.score([{ taskId, states: [...states] }]);
      return scores;
    },
    train: {
      start: (config) => handle.api.trainStart(config),
      step: (onProgress) => (onProgress ? handle.api.trainStep(Comlink.proxy(onProgress)) : handle.api.trainStep()),
      stop: () => handle.api.trainStop(),
    },
    evaluate: (statesPerTask) => handle.api.evaluate(statesPerTask),
    dispose: () => handle.terminate(),
  };
}
