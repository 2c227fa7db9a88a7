// The Train view's settings: what the form edits, the range of every number in it, and the
// TrainerConfig they make. Pure, so the view stays thin and the rules are unit-tested.
import { BASE_CONFIG, PRESETS, presetConfig, type PresetId } from '../../wmrl/presets';
import { validateTrainerConfig, type TrainerConfig } from '../../wmrl/trainer';
import { problemsOf, type NumberSpec } from '../fields';

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

export type NumericSetting = 'steps' | 'groupsPerStep' | 'groupSize' | 'seed' | 'rho' | 'lr' | 'temperature' | 'klBeta';

/** The ranges the form accepts (the trainer's own checks are wider; these keep a run sensible in a tab). */
export const SETTING_SPECS: Record<NumericSetting, NumberSpec> = {
  steps: { label: 'Steps', min: 1, max: 500, integer: true },
  groupsPerStep: { label: 'B (tasks / step)', min: 1, max: 32, integer: true },
  groupSize: { label: 'n (programs / task)', min: 2, max: 16, integer: true },
  seed: { label: 'Seed', min: 0, max: 2 ** 31 - 1, integer: true },
  rho: { label: 'ρ (anchor fraction)', min: 0.01, max: 0.99 },
  lr: { label: 'Learning rate', min: 0, max: 0.1, minExclusive: true },
  temperature: { label: 'Temperature', min: 0, max: 2 },
  klBeta: { label: 'KL β', min: 0, max: 10 },
};

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

/** Field by field, what is out of range (rho only where the preset lets it be set). */
export function settingsProblems(s: TrainSettings): Partial<Record<NumericSetting, string>> {
  return problemsOf(SETTING_SPECS, { ...s, rho: effectiveRho(s) }, mixesStreams(s) ? [] : ['rho']);
}

/** The run's config; throws the first field's message when a setting is out of range. */
export function configOf(s: TrainSettings): TrainerConfig {
  const problem = Object.values(settingsProblems(s))[0];
  if (problem) throw new RangeError(problem);
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
