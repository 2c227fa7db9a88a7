// Presets: one full TrainerConfig per row of the paper's table that applies at this scale, the
// ablations, and the PPI variant (method.md 5). They differ only in the method switches (rho,
// debias, fusion); everything else is the shared base below, sized for a 2-core machine without a
// GPU so that a preset runs in minutes:
//
//   B = 8 groups x n = 4 programs = 32 programs a step, 20 steps (640 programs per run).
//   rho = 0.125: exactly one anchor group a step at B = 8. The paper's 0.10 would give 0 or 1
//     anchor groups a step here (the accumulator keeps the long-run share exact either way); 1/8
//     keeps every step's fusion estimate fed while executing 8x fewer programs than all-real GRPO.
//   temperature 0.6: the committed SFT policy writes a runnable program ~60% of the time at 0.6 and
//     almost never at 0.8 (docs/models.md); groups of broken programs all score 0 and teach nothing.
//   maxNewTokens 256: room for the reference programs (the models pipeline uses a 320-token context
//     and the cards take ~60 of it); the engine also stops at the context length.
//   lr 2e-4 (10x under the SFT peak), no weight decay (RL should not pull towards 0), gradient-norm
//     clip 1, one epoch (on-policy: ratio clipping is inert), no KL (method.md 3.6 default).
//   advantages 'mean' (A_i = r_i - mean r): method.md 3.5's default for n this small.

import type { TrainerConfig } from './trainer.ts';

export type PresetId =
  | 'grpo-all-real'
  | 'world-model-only'
  | 'wmrl'
  | 'ablation-neither'
  | 'ablation-denoise-only'
  | 'ablation-debias-only'
  | 'ablation-both'
  | 'wmrl-ppi'
  | 'wmrl-unreadable'
  | 'wmrl-static';

export interface Preset {
  id: PresetId;
  /** The paper's row or ablation it stands for. */
  label: string;
  /** What differs from the base, in a sentence. */
  description: string;
  /** The paper's numbers for the 4B model where it reports them (MLE avg, DSBench avg, GPU-hours). */
  paper: { mle: number; dsbench: number; gpuHours: number | null } | null;
  config: TrainerConfig;
}

export const BASE_CONFIG: Omit<TrainerConfig, 'name' | 'rho' | 'debias' | 'fusion'> = {
  seed: 1,
  steps: 20,
  groupsPerStep: 8,
  groupSize: 4,
  advantageMode: 'mean',
  emaRate: 0.1,
  halfLife: undefined,
  sampling: { maxNewTokens: 256, temperature: 0.6, topK: 0 },
  lr: 2e-4,
  weightDecay: 0,
  maxGradNorm: 1,
  epochs: 1,
  clipEpsilon: 0.2,
  klBeta: 0,
};

export const WMRL_RHO = 0.125;

function preset(
  id: PresetId, label: string, description: string, paper: Preset['paper'],
  switches: Pick<TrainerConfig, 'rho' | 'debias' | 'fusion'> & Partial<Pick<TrainerConfig, 'worldModelReading' | 'staticCheck'>>,
): Preset {
  return { id, label, description, paper, config: { ...structuredClone(BASE_CONFIG), name: id, ...switches } };
}

export const PRESETS: readonly Preset[] = [
  preset('grpo-all-real', 'GRPO (all real execution)', 'Every group executed for real; the world model is never called.', { mle: 15.2, dsbench: 25.7, gpuHours: 883 }, { rho: 1, debias: false, fusion: 'none' }),
  preset('world-model-only', 'World model only', 'No execution: rewards are the raw world-model scores.', { mle: 12.9, dsbench: 23.1, gpuHours: 269 }, { rho: 0, debias: false, fusion: 'none' }),
  preset('wmrl', 'WMRL', 'Anchors + isotonic debiasing + inverse-variance fusion.', { mle: 16.4, dsbench: 28.8, gpuHours: 286 }, { rho: WMRL_RHO, debias: true, fusion: 'ivw' }),
  preset('ablation-neither', 'Ablation: neither correction', 'Anchors kept, raw world-model rewards, every group weighs the same.', { mle: 13.5, dsbench: 25.3, gpuHours: null }, { rho: WMRL_RHO, debias: false, fusion: 'none' }),
  preset('ablation-denoise-only', 'Ablation: denoise only', 'Raw world-model rewards, inverse-variance fusion.', { mle: 14.9, dsbench: 26.2, gpuHours: null }, { rho: WMRL_RHO, debias: false, fusion: 'ivw' }),
  preset('ablation-debias-only', 'Ablation: debias only', 'Isotonic debiasing, every group weighs the same.', { mle: 15.7, dsbench: 28.1, gpuHours: null }, { rho: WMRL_RHO, debias: true, fusion: 'none' }),
  preset('ablation-both', 'Ablation: both (= WMRL)', 'Debiasing and denoising: the same switches as WMRL.', { mle: 16.4, dsbench: 28.8, gpuHours: null }, { rho: WMRL_RHO, debias: true, fusion: 'ivw' }),
  preset('wmrl-ppi', 'WMRL with PPI++ (beyond the paper)', 'Debiasing, and the PPI++ rectifier with an online lambda instead of fusion.', null, { rho: WMRL_RHO, debias: true, fusion: 'ppi' }),
  preset('wmrl-unreadable', 'Control: WMRL with an unreadable world model', "WMRL, but each step's world-model scores are shuffled across its programs, so they say nothing about the code (claim 5).", null, { rho: WMRL_RHO, debias: true, fusion: 'ivw', worldModelReading: 'shuffled' }),
  preset('wmrl-static', 'WMRL with a free verifier (beyond the paper)', 'WMRL, but a program that does not compile, or gives a toolkit constructor a keyword it does not take, gets reward 0 without being scored or run.', null, { rho: WMRL_RHO, debias: true, fusion: 'ivw', staticCheck: true }),
];

export function presetById(id: PresetId): Preset {
  const p = PRESETS.find((x) => x.id === id);
  if (!p) throw new Error(`unknown preset ${String(id)}`);
  return structuredClone(p);
}

/** A preset's config with overrides (e.g. seed, steps, or B and n for a quick run). */
export function presetConfig(id: PresetId, overrides: Partial<TrainerConfig> = {}): TrainerConfig {
  const base = presetById(id).config;
  return { ...base, ...overrides, sampling: { ...base.sampling, ...(overrides.sampling ?? {}) } };
}
