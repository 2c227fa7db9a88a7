// The robot policy as a language model: one place builds the sequence training learns from and the
// prompt a rollout decodes from, so the two cannot drift apart.
//
//   training   [bos] instruction [sep] frame tokens [sep] [action]   loss on [action] only
//   rollout    [bos] instruction [sep] frame tokens [sep]            one token decoded, read as the action
//
// The closing [sep] is where the action is read out: the same token at the end of every prompt, so
// the model's query there is one thing to learn, not one per kind of cell that happens to come last
// (measured: 73% of expert actions right against 54% without it, same data and steps; docs/embodied.md).
//
// A decoded token that is not an action is a step that does nothing ('release' with an empty
// gripper; with a block held it puts it down, as any wrong action may).

import type { PolicyEngine } from '../engine/policy-engine.ts';
import { SPECIAL_TOKENS } from '../model/tokenizer.ts';
import { deriveSeed, mulberry32 } from '../primitives/random.ts';
import { actionOfToken, actionToken } from './frame-tokens.ts';
import type { Action } from './kinematics.ts';
import { renderScene, type Frame } from './renderer.ts';
import type { BatchPolicy } from './rollout.ts';
import type { SceneState } from './scene.ts';
import type { RobotTask } from './tasks.ts';

/** A frame encoding the policy reads (dense, sparse or egocentric frame tokens). */
export interface PolicyFrameTokens {
  readonly vocabSize: number;
  encode(instruction: string, frame: Frame): { tokens: number[]; frameStart: number };
}

export function policyPrompt(frames: PolicyFrameTokens, task: RobotTask, state: SceneState): number[] {
  return [...frames.encode(task.instruction, renderScene(state)).tokens, SPECIAL_TOKENS.sep];
}

/** A behaviour-cloning sequence: the prompt, then the action, the one token the loss sees. */
export function policySequence(frames: PolicyFrameTokens, example: { task: RobotTask; state: SceneState; action: Action }): { tokens: number[]; programStart: number } {
  const prompt = policyPrompt(frames, example.task, example.state);
  return { tokens: [...prompt, actionToken(example.action)], programStart: prompt.length };
}

export interface ModelPolicyOptions {
  /** 0: greedy */
  temperature: number;
  seed: number;
  /**
   * Key each draw by (seed, episode, t) instead of by (seed, call, position among the open episodes),
   * so two policies sampled from the same starts use the same uniform at the same step of the same
   * episode whichever episodes are still open (common random numbers: rows compared on the same
   * draws). Needs items with `episode` (runEpisodes gives it). Off: the draws training has always used.
   */
  drawsByEpisode?: boolean;
  /** Sees every decision: the item asked about, the decoded token and the action taken. */
  onAction?: (item: { task: RobotTask; state: SceneState; t: number }, token: number, action: Action) => void;
}

function episodeOf(item: { episode?: number }): number {
  if (item.episode === undefined) throw new Error('modelPolicy: drawsByEpisode needs each item\'s episode index (runEpisodes gives it)');
  return item.episode;
}

/** A batch policy that decodes one token a step for every open episode in one engine call. */
export function modelPolicy(engine: PolicyEngine, frames: PolicyFrameTokens, options: ModelPolicyOptions): BatchPolicy {
  let call = 0;
  return async (items) => {
    call++;
    const prompts = items.map(({ task, state }) => policyPrompt(frames, task, state));
    const out = await engine.sample(prompts, { maxNewTokens: 1, temperature: options.temperature, rngs: items.map((item, k) => mulberry32(options.drawsByEpisode ? deriveSeed(options.seed, 8, episodeOf(item), item.t) : deriveSeed(options.seed, 7, call, k))) });
    return out.map((o, k) => {
      const token = o.tokens[0];
      const action = actionOfToken(token) ?? 'release';
      options.onAction?.(items[k], token, action);
      return action;
    });
  };
}
