// The Train view's settings: what the form edits and the TrainerConfig they make. Pure, so the
// view stays thin and the rules are unit-tested.
import { BASE_CONFIG, PRESETS, presetConfig, type PresetId } from '../../wmrl/presets';
import { validateTrainerConfig, type TrainerConfig } from '../../wmrl/trainer';

export type PolicyBackend = 'auto' | 'cpu' | 'webgpu';
export type WorldModelBackend = 'auto' | 'wasm' | 'webgpu';

export interface TrainSettings {
  presetId: PresetId;
  steps: number;
  groupsPerStep: number;
  groupSize: number;
  seed: number;
  /** Anchor fraction; null = the preset's own. Used only by presets that mix the two streams. */
  rho: number | null;
  lr: number;
  temperature: number;
  klBeta: number;
  /** Engines: 'auto' takes a real GPU when there is one (a software adapter is passed over). */
  policyBackend: PolicyBackend;
  worldModelBackend: WorldModelBackend;
}

export function defaultSettings(): TrainSettings {
  return {
    presetId: 'wmrl',
    steps: BASE_CONFIG.steps,
    groupsPerStep: BASE_CONFIG.groupsPerStep,
    groupSize: BASE_CONFIG.groupSize,
    seed: BASE_CONFIG.seed,
    rho: null,
    lr: BASE_CONFIG.lr,
    temperature: BASE_CONFIG.sampling.temperature,
    klBeta: BASE_CONFIG.klBeta,
    policyBackend: 'auto',
    worldModelBackend: 'auto',
  };
}

export function presetOf(s: Pick<TrainSettings, 'presetId'>) {
  return PRESETS.find((p) => p.id === s.presetId) ?? PRESETS.find((p) => p.id === 'wmrl')!;
}

/** rho is a setting only where the preset mixes the two streams; GRPO (1) and world-model only (0) keep theirs. */
export function mixesStreams(s: Pick<TrainSettings, 'presetId'>): boolean {
  const rho = presetOf(s).config.rho;
  return rho > 0 && rho < 1;
}

export function effectiveRho(s: Pick<TrainSettings, 'presetId' | 'rho'>): number {
  return mixesStreams(s) && s.rho !== null ? s.rho : presetOf(s).config.rho;
}

/** The run's config (the trainer's own checks run on it before any worker starts). */
export function configOf(s: TrainSettings): TrainerConfig {
  const preset = presetOf(s);
  const config = presetConfig(preset.id, {
    steps: s.steps, groupsPerStep: s.groupsPerStep, groupSize: s.groupSize, seed: s.seed, lr: s.lr, klBeta: s.klBeta,
    rho: effectiveRho(s), sampling: { ...preset.config.sampling, temperature: s.temperature },
  });
  validateTrainerConfig(config);
  return config;
}

/** The settings a saved run was made with, so the form shows them again. */
export function settingsOfConfig(c: TrainerConfig, engines: Pick<TrainSettings, 'policyBackend' | 'worldModelBackend'>): TrainSettings {
  const presetId = PRESETS.some((p) => p.id === c.name) ? (c.name as PresetId) : 'wmrl';
  return {
    presetId, steps: c.steps, groupsPerStep: c.groupsPerStep, groupSize: c.groupSize, seed: c.seed, rho: c.rho, lr: c.lr,
    temperature: c.sampling.temperature, klBeta: c.klBeta,
    policyBackend: engines.policyBackend, worldModelBackend: engines.worldModelBackend,
  };
}
