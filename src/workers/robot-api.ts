// The contract between the page and the robot worker (comlink). Types only: both sides import it.
import type { Action } from '../embodied/kinematics.ts';
import type { StateSplit } from '../embodied/layout.ts';
import type { SceneState } from '../embodied/scene.ts';
import type { RobotEvaluation } from '../embodied/robot-evaluation.ts';
import type { RobotStepProgress, RobotStepResult, RobotTrainerConfig } from '../embodied/robot-trainer.ts';

export interface RobotLoadRequest {
  /** The behaviour-cloning policy checkpoint, checked against its manifest (transferred). */
  policy: ArrayBuffer;
  /** The frozen progress model checkpoint, checked against its manifest (transferred). */
  progress: ArrayBuffer;
}

export interface RobotWorkerInfo {
  policy: { backend: string; numParameters: number; encoding: string };
  progress: { backend: string; reason: string; numParameters: number };
}

/** An episode's start: a task and one of its seeded initial scenes. */
export interface RobotStart {
  taskId: string;
  split: StateSplit;
  index: number;
}

export interface RobotPolicyOptions {
  /** 0: greedy */
  temperature: number;
  seed: number;
}

export interface RobotWorkerApi {
  load(request: RobotLoadRequest): Promise<RobotWorkerInfo>;
  /**
   * Runs the policy from each start, all episodes batched in one decoder call a step; the actions of
   * each (the page replays them). `onStep` (a Comlink.proxy) hears the step number as it goes.
   */
  policyRollouts(starts: RobotStart[], options: RobotPolicyOptions, onStep?: (t: number) => void): Promise<{ actions: Action[]; success: boolean }[]>;
  /** The progress model's raw scores of each rollout's 8 scored frames (src/embodied/progress-frames.ts). */
  score(rollouts: { taskId: string; states: SceneState[] }[]): Promise<number[][]>;
  /**
   * Starts an RL run (RobotTrainer) on a fresh copy of the committed policy, replacing any run; the
   * policy that policyRollouts uses stays the committed one.
   */
  trainStart(config: RobotTrainerConfig): Promise<void>;
  /** One step of the run: its record and its rollouts with their scenes; `onProgress` (a Comlink.proxy) hears how far it is. */
  trainStep(onProgress?: (p: RobotStepProgress) => void): Promise<RobotStepResult>;
  /** Greedy held-out evaluation (robot-evaluation.ts) of the run's policy, or of the committed policy before any run. */
  evaluate(statesPerTask: number): Promise<{ of: 'run' | 'committed'; steps: number; evaluation: RobotEvaluation }>;
  /** Ends the run and frees its policy copy. */
  trainStop(): Promise<void>;
  release(): Promise<void>;
}
