// The companion's controls in the URL: the synthetic world model's settings under a section's
// prefix (db.shape, dn.noise, ...), read back within the ranges its sliders allow.
import { router } from '../route.svelte.ts';
import { BIAS_SHAPES, type SyntheticWorldModel } from './sim-world-model.ts';

/** The sliders' ranges, shared by the controls and the URL reader. */
export const WM_RANGES = {
  strength: { min: 0, max: 1, step: 0.05 },
  noise: { min: 0, max: 0.3, step: 0.01 },
  readability: { min: 0, max: 1, step: 0.05 },
} as const;

const SHAPES = BIAS_SHAPES.map((s) => s.value);

export function readWorldModel(prefix: string, d: SyntheticWorldModel): SyntheticWorldModel {
  return {
    shape: router.choice(`${prefix}.shape`, SHAPES, d.shape),
    strength: router.num(`${prefix}.strength`, WM_RANGES.strength, d.strength),
    noise: router.num(`${prefix}.noise`, WM_RANGES.noise, d.noise),
    readability: router.num(`${prefix}.read`, WM_RANGES.readability, d.readability),
  };
}

/** Writes the world model's settings (those at their default are left out of the URL). */
export function writeWorldModel(prefix: string, wm: SyntheticWorldModel, d: SyntheticWorldModel): void {
  const keys = { shape: 'shape', strength: 'strength', noise: 'noise', readability: 'read' } as const;
  const values: Record<string, string | number> = {};
  const defaults: Record<string, string | number> = {};
  for (const [k, key] of Object.entries(keys) as [keyof SyntheticWorldModel, string][]) {
    values[`${prefix}.${key}`] = wm[k];
    defaults[`${prefix}.${key}`] = d[k];
  }
  router.set(values, defaults);
}
