// What the robot view draws of a rollout, as pure functions: a frame as canvas pixels, the progress
// model's 8 scores placed at the steps they score, and the dense reward each shaping mode makes of them.
import { clampProgress } from '../../embodied/progress-frames.ts';
import type { Frame } from '../../embodied/renderer.ts';
import { denseReward, frameIndices, type DenseRewardMode } from '../../embodied/shaping.ts';

/** An RGB frame as RGBA pixels for ImageData (opaque). */
export function frameRgba(frame: Frame): Uint8ClampedArray<ArrayBuffer> {
  const n = frame.width * frame.height;
  if (frame.rgb.length !== n * 3) throw new RangeError(`a ${frame.width} x ${frame.height} frame has ${n * 3} RGB bytes, got ${frame.rgb.length}`);
  const out = new Uint8ClampedArray(n * 4);
  for (let i = 0; i < n; i++) {
    out[i * 4] = frame.rgb[i * 3];
    out[i * 4 + 1] = frame.rgb[i * 3 + 1];
    out[i * 4 + 2] = frame.rgb[i * 3 + 2];
    out[i * 4 + 3] = 255;
  }
  return out;
}

export interface ScoredFrame {
  /** The step whose scene is scored (0: the initial scene). */
  t: number;
  /** The model's raw score. */
  raw: number;
  /** The score as progress in [0, 1], what the dense reward reads. */
  progress: number;
}

/** The 8 scored frames of a rollout of `observations` scenes, with the model's raw scores. */
export function scoredFrames(observations: number, raw: readonly number[]): ScoredFrame[] {
  const at = frameIndices(observations);
  if (raw.length !== at.length) throw new RangeError(`expected ${at.length} progress scores, got ${raw.length}`);
  return at.map((t, i) => ({ t, raw: raw[i], progress: clampProgress(raw[i]) }));
}

export function denseOf(frames: readonly ScoredFrame[], mode: DenseRewardMode): number {
  return denseReward(frames.map((f) => f.progress), mode);
}

/** One sentence on each shaping mode, shown beside the choice. */
export const SHAPING_EXPLAINED: Record<DenseRewardMode, string> = {
  delta: 'The authors\' default: the mean progress of the last 3 scored frames minus that of the first 3, so a rollout earns what it advanced, not where it started.',
  final: 'The progress of the last scored frame alone: where the rollout ended up, whatever it started from.',
  max: 'The highest progress of any scored frame: one good-looking frame is enough, which makes it the easiest to game.',
};
