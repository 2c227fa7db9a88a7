// Central finite differences on a random subset of parameters, shared by the gradient tests.

import type { Model } from '../../../src/model/init.ts';

export interface GradCheckReport {
  checked: number;
  worst: { index: number; analytic: number; numeric: number; error: number };
}

/**
 * For each chosen index i: numeric = (L(p + h e_i) - L(p - h e_i)) / 2h, compared to analytic[i] with
 * error = |numeric - analytic| / max(|numeric| + |analytic|, floor).
 */
export function checkGradient(
  model: Model,
  loss: () => number,
  analytic: Float32Array,
  indices: readonly number[],
  h = 1e-2,
  floor = 1e-3,
): GradCheckReport {
  let worst = { index: -1, analytic: 0, numeric: 0, error: 0 };
  for (const i of indices) {
    const saved = model.params[i];
    model.params[i] = saved + h;
    const up = loss();
    model.params[i] = saved - h;
    const down = loss();
    model.params[i] = saved;
    const numeric = (up - down) / (2 * h);
    const error = Math.abs(numeric - analytic[i]) / Math.max(Math.abs(numeric) + Math.abs(analytic[i]), floor);
    if (error > worst.error || worst.index < 0) worst = { index: i, analytic: analytic[i], numeric, error };
  }
  return { checked: indices.length, worst };
}

/** Indices to check: a few from every tensor, so no view can hide a wrong gradient. */
export function indicesPerView(model: Model, perView: number, rng: () => number): number[] {
  const out: number[] = [];
  for (const v of model.layout.views) {
    const k = Math.min(perView, v.size);
    for (let j = 0; j < k; j++) out.push(v.offset + Math.floor(rng() * v.size));
  }
  return out;
}
