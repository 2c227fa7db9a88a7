// The robot worker: the behaviour-cloning policy on the CPU engine (onnxruntime-web wasm) and the
// frozen progress model on the same runtime, off the page's thread. It is the ONNX world-model runner
// the Node validation used (src/cli/robot-progress.ts), so the page's progress scores are Node's.
import * as Comlink from 'comlink';
import { initialScene } from '../embodied/layout.ts';
import { FrameTokenizer } from '../embodied/frame-tokens.ts';
import { policyFrameTokensOf } from '../embodied/policy-frame-tokens.ts';
import { modelPolicy, type PolicyFrameTokens } from '../embodied/policy-model.ts';
import { progressFrameSequences } from '../embodied/progress-frames.ts';
import { openProgressModel, type ProgressScorer } from '../embodied/progress-scorer.ts';
import { evaluateRobotPolicy } from '../embodied/robot-evaluation.ts';
import { RobotTrainer, type RobotStepProgress } from '../embodied/robot-trainer.ts';
import { runEpisodes } from '../embodied/rollout.ts';
import { PROGRESS_FRAMES } from '../embodied/shaping.ts';
import { taskById } from '../embodied/tasks.ts';
import { CpuEngine } from '../engine/cpu/cpu-engine.ts';
import type { WorldModelRunner } from '../engine/onnx/world-model-runner.ts';
import { loadCheckpoint } from '../model/checkpoint.ts';
import type { RobotWorkerApi, RobotWorkerInfo } from './robot-api.ts';

interface Loaded {
  engine: CpuEngine;
  frames: PolicyFrameTokens;
  runner: WorldModelRunner;
  progressTokens: FrameTokenizer;
  /** The trainer's scorer: progress-scorer.ts over this worker's runner, as Node's loadProgressModel builds it. */
  progress: ProgressScorer;
  /** The policy checkpoint, kept so each run starts from a fresh copy of the committed weights. */
  policyBytes: ArrayBuffer;
}

let loaded: Loaded | null = null;
/** The RL run: its own engine (sampling and update share its weights), so the committed policy stays intact. */
let run: { trainer: RobotTrainer; engine: CpuEngine } | null = null;

async function stopRun(): Promise<void> {
  if (!run) return;
  const r = run;
  run = null;
  await r.engine.dispose();
}

function need(): Loaded {
  if (!loaded) throw new Error('robot: load() the models first');
  return loaded;
}

async function release(): Promise<void> {
  if (!loaded) return;
  const l = loaded;
  loaded = null;
  await stopRun();
  await l.engine.dispose();
  await l.runner.release();
}

const api: RobotWorkerApi = {
  async load(request): Promise<RobotWorkerInfo> {
    await release();
    const policyBytes = request.policy.slice(0);
    const policy = loadCheckpoint(request.policy);
    const frames = policyFrameTokensOf(policy.meta);
    const { runner, frames: progressTokens, score: progressScore, numParameters } = await openProgressModel(request.progress, { prefer: 'wasm' });
    const engine = CpuEngine.fromModel(policy.model);
    loaded = { engine, frames, runner, progressTokens, progress: progressScore, policyBytes };
    return {
      policy: { backend: engine.backend, numParameters: policy.model.layout.numParameters, encoding: `${String(policy.meta.encoding)}${policy.meta.octants === true ? ' + octants' : ''}${typeof policy.meta.lead === 'string' && policy.meta.lead !== 'none' ? ` + ${policy.meta.lead} lead` : ''}` },
      progress: { backend: runner.backend, reason: runner.reason, numParameters },
    };
  },

  async policyRollouts(starts, options, onStep) {
    const { engine, frames } = need();
    const policy = modelPolicy(engine, frames, { temperature: options.temperature, seed: options.seed });
    let steps = 0;
    const episodes = await runEpisodes(
      starts.map((s) => {
        const task = taskById(s.taskId);
        return { task, initial: initialScene(task, s.split, s.index) };
      }),
      async (items) => {
        const actions = await policy(items);
        onStep?.(++steps);
        return actions;
      },
    );
    return episodes.map((e) => ({ actions: e.actions, success: e.success }));
  },

  async score(rollouts) {
    const { runner, progressTokens } = need();
    const sequences = rollouts.flatMap((r) => progressFrameSequences(progressTokens, taskById(r.taskId), r.states));
    const { scores } = await runner.scoreSequences(sequences);
    return rollouts.map((_, k) => Array.from(scores.subarray(k * PROGRESS_FRAMES, (k + 1) * PROGRESS_FRAMES)));
  },

  async trainStart(config) {
    const { frames, progress, policyBytes } = need();
    await stopRun();
    const engine = CpuEngine.fromModel(loadCheckpoint(policyBytes.slice(0)).model);
    try {
      run = { trainer: new RobotTrainer(config, { engine, frames, progress }), engine };
    } catch (e) {
      await engine.dispose();
      throw e;
    }
  },

  async trainStep(onProgress) {
    if (!run) throw new Error('robot: start a run first');
    if (!onProgress) return run.trainer.step();
    const remote = onProgress as Comlink.Remote<(p: RobotStepProgress) => void>;
    try {
      // Fire and forget, as the policy worker's sampling: the page's answer is not waited for.
      return await run.trainer.step((p) => void Promise.resolve(remote(p)).catch(() => undefined));
    } finally {
      remote[Comlink.releaseProxy]();
    }
  },

  async evaluate(statesPerTask) {
    const { engine, frames } = need();
    const evaluation = await evaluateRobotPolicy(run ? run.engine : engine, frames, { statesPerTask });
    return { of: run ? 'run' : 'committed', steps: run ? run.trainer.stepsTaken : 0, evaluation };
  },

  trainStop: stopRun,
  release,
};

// One call at a time: every call shares one onnxruntime instance (its runs must not overlap) and a
// training step must not be interleaved with a rollout or an evaluation; the page's buttons are not
// the only guard. A call waits for the one before it, whether that one succeeded or failed.
let queue: Promise<unknown> = Promise.resolve();
function serial<A extends unknown[], R>(f: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return (...args) => {
    const next = queue.then(() => f(...args), () => f(...args));
    queue = next.catch(() => undefined);
    return next;
  };
}
const serialApi = Object.fromEntries(Object.entries(api).map(([k, f]) => [k, serial(f as (...a: unknown[]) => Promise<unknown>)])) as unknown as RobotWorkerApi;

Comlink.expose(serialApi);
