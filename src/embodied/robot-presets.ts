// The robot domain's rows (issue 24; the paper's embodied table): the coding domain's method switches
// (src/training/presets.ts: rho, debiasing, fusion) applied to rollouts, with one anchor group a step
// as the authors run it (rho = 1 / B for the rows that mix the streams), on a base sized for a
// 2-core machine without a GPU:
//
//   B = 8 initial states x G = 4 rollouts = 32 rollouts a step, horizon 96 (up to 3,072 action tokens)
//   temperature 1 (the paper's embodied sampling), dense reward 'delta' (the authors' default)
//   the coding base's optimiser (AdamW, no weight decay, clip 1, one epoch, no KL) and advantages
//   ('mean'), lr 2e-4 as there
//   every rollout weighs the same in the loss whatever its length ('per-rollout', as the authors'
//   embodied trainer: a fixed number of steps sampled per rollout); 'constant' is the switch's other side
//   32 training initial states a task to draw from (the behaviour-cloning policy saw these)
//
//   robot-sft            the starting policy, evaluated only (no step)
//   robot-grpo-sparse    every group rewarded by the simulator's success; no progress model (rho 1)
//   robot-progress-only  the progress model's dense reward alone, raw (rho 0)
//   robot-wmrl           dense + one sparse anchor group a step, debiasing (isotonic g(s) = P(success | s)) and fusion
//   robot-neither        the anchors without either correction
//   robot-debias-only    debiasing alone
//   robot-fusion-only    fusion (inverse-variance, the denoising) alone
//
// The authors' rules (issue 46), beside those rows: each takes every method switch of its coding
// `paper-*` preset (std advantages, the per-step anchor rule, the binned calibrator and the anchor weight
// with the coding table's scaled constants) and the authors' G = 8:
//   robot-paper-grpo-sparse     paper-grpo-all-real's rules on the sparse success
//   robot-paper-progress-only   paper-world-model-only's: the dense reward alone
//   robot-paper-wmrl            paper-wmrl's, in the authors' free-anchor regime of this domain: one
//                               success-rewarded anchor group a step, every rollout's success a calibration pair
//   robot-paper-wmrl-anchors    the same at the coding table's regime: the anchors' pairs alone (one switch)
// (G 8 is their default here, for headless runs; the page's form sets its own, smaller G.)

import { BASE_CONFIG, presetById, type PresetId } from '../training/presets.ts';
import type { RobotTrainerConfig } from './robot-trainer.ts';
import { HORIZON } from './rollout.ts';

export type RobotPresetId = 'robot-sft' | 'robot-grpo-sparse' | 'robot-progress-only' | 'robot-wmrl' | 'robot-neither' | 'robot-debias-only' | 'robot-fusion-only'
  | 'robot-paper-grpo-sparse' | 'robot-paper-progress-only' | 'robot-paper-wmrl' | 'robot-paper-wmrl-anchors';

/** Rollouts per initial state in the authors' LIBERO runs (their Table 3). */
export const AUTHORS_ROBOT_G = 8;

export interface RobotPreset {
  id: RobotPresetId;
  label: string;
  description: string;
  /** The coding preset whose method switches it takes (null: the SFT row, no method). */
  switchesFrom: PresetId | null;
  /** The paper's success rate (LIBERO-Long, MiniVLA-1B) where it reports the row. */
  paper: number | null;
  /** On the authors' rules: every method switch of switchesFrom, G 8, and whether every rollout's success calibrates. */
  authors?: { calibrateOnAll: boolean };
}

export const ROBOT_PRESETS: readonly RobotPreset[] = [
  { id: 'robot-sft', label: 'SFT (behaviour cloning)', description: 'The starting policy, evaluated without RL.', switchesFrom: null, paper: 37.4 },
  { id: 'robot-grpo-sparse', label: 'GRPO on sparse success', description: "Every group rewarded by the simulator's success; the progress model is never called.", switchesFrom: 'grpo-all-real', paper: 38.3 },
  { id: 'robot-progress-only', label: 'Progress model only', description: "The progress model's dense reward alone; success is never read.", switchesFrom: 'world-model-only', paper: null },
  { id: 'robot-wmrl', label: 'WMRL', description: 'Dense reward with one success-anchored group a step, isotonic debiasing and inverse-variance fusion.', switchesFrom: 'wmrl', paper: 41.2 },
  { id: 'robot-neither', label: 'Ablation: neither correction', description: 'One anchor group a step, raw dense rewards, every group weighs the same.', switchesFrom: 'ablation-neither', paper: null },
  { id: 'robot-debias-only', label: 'Ablation: debias only', description: 'Isotonic debiasing of the dense reward, every group weighs the same.', switchesFrom: 'ablation-debias-only', paper: null },
  { id: 'robot-fusion-only', label: 'Ablation: fusion only', description: 'Raw dense rewards, inverse-variance fusion of the two streams.', switchesFrom: 'ablation-denoise-only', paper: null },
  { id: 'robot-paper-grpo-sparse', label: "GRPO on sparse success (authors' rules)", description: "Every group rewarded by the simulator's success, verl's std advantages.", switchesFrom: 'paper-grpo-all-real', paper: 38.3, authors: { calibrateOnAll: false } },
  { id: 'robot-paper-progress-only', label: "Progress model only (authors' rules)", description: "The progress model's dense reward alone, std advantages.", switchesFrom: 'paper-world-model-only', paper: null, authors: { calibrateOnAll: false } },
  { id: 'robot-paper-wmrl', label: "WMRL as the authors built it", description: "One success-rewarded anchor group a step; every rollout's success calibrates the dense reward (their free-anchor regime); binned calibrator, anchor weight, std advantages.", switchesFrom: 'paper-wmrl', paper: 41.2, authors: { calibrateOnAll: true } },
  { id: 'robot-paper-wmrl-anchors', label: "WMRL, authors' rules, anchors' pairs only", description: "As robot-paper-wmrl, but only the anchor group's rollouts calibrate (the coding table's regime): one switch.", switchesFrom: 'paper-wmrl', paper: null, authors: { calibrateOnAll: false } },
];

export const ROBOT_PRESET_IDS: readonly RobotPresetId[] = ROBOT_PRESETS.map((p) => p.id);

export const ROBOT_BASE: Omit<RobotTrainerConfig, 'name' | 'rho' | 'debias' | 'fusion'> = {
  seed: 1,
  steps: 10,
  groupsPerStep: 8,
  groupSize: 4,
  temperature: 1,
  horizon: HORIZON,
  denseReward: 'delta',
  trainStates: 32,
  advantageMode: BASE_CONFIG.advantageMode,
  emaRate: BASE_CONFIG.emaRate,
  halfLife: BASE_CONFIG.halfLife,
  lr: BASE_CONFIG.lr,
  weightDecay: BASE_CONFIG.weightDecay,
  maxGradNorm: BASE_CONFIG.maxGradNorm,
  normalise: 'per-rollout',
};

export function robotPresetById(id: string): RobotPreset {
  const p = ROBOT_PRESETS.find((x) => x.id === id);
  if (!p) throw new RangeError(`unknown robot preset ${JSON.stringify(id)} (known: ${ROBOT_PRESET_IDS.join(', ')})`);
  return structuredClone(p);
}

/**
 * A robot preset's config with overrides (seed, steps, B, G, ...). The coding preset's switches
 * decide rho, debiasing and fusion; a mixed rho becomes 1 / B, one anchor group a step, whatever B is.
 */
export function robotPresetConfig(id: RobotPresetId, overrides: Partial<RobotTrainerConfig> = {}): RobotTrainerConfig {
  const p = robotPresetById(id);
  const base = { ...structuredClone(ROBOT_BASE), ...overrides };
  if (p.switchesFrom === null) return { ...base, name: id, steps: 0, rho: 1, debias: false, fusion: 'none' };
  const sw = presetById(p.switchesFrom).config;
  if (p.authors) {
    // every method switch of the coding preset, as the method core reads it (methodConfigOf)
    const { rho, advantageMode, debias, fusion, emaRate, halfLife, anchorWeight, binnedCalibrator, perStepAnchors } = sw;
    return {
      ...base, groupSize: overrides.groupSize ?? AUTHORS_ROBOT_G, name: id, rho, advantageMode, debias, fusion, emaRate, halfLife,
      ...(anchorWeight ? { anchorWeight } : {}), ...(binnedCalibrator ? { binnedCalibrator } : {}), ...(perStepAnchors ? { perStepAnchors } : {}),
      ...(p.authors.calibrateOnAll ? { calibrateOnAll: true } : {}),
    };
  }
  const rho = sw.rho === 0 || sw.rho === 1 ? sw.rho : 1 / base.groupsPerStep;
  return { ...base, name: id, rho, debias: sw.debias, fusion: sw.fusion };
}
