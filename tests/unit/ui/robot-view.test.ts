// The robot view's pure parts: its settings round-trip through the URL (prefixed keys, defaults left
// out, hand-edited values out of range fall back), a frame becomes opaque canvas pixels, and the 8
// scored frames sit at the steps frameIndices picks with the dense reward of each shaping mode.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROBOT_DEFAULTS, robotSettingsFromParams, robotSettingsParams } from '../../../src/ui/robot/robot-settings.ts';
import { SHAPING_EXPLAINED, denseOf, frameRgba, scoredFrames } from '../../../src/ui/robot/rollout-view.ts';
import { initialScene } from '../../../src/embodied/layout.ts';
import { renderScene } from '../../../src/embodied/renderer.ts';
import { DENSE_REWARD_MODES, denseReward } from '../../../src/embodied/shaping.ts';
import { ALL_TASKS } from '../../../src/embodied/tasks.ts';
import { paramOf } from '../../../src/ui/url-state.ts';

/** What router.set leaves in the URL for these settings. */
function urlOf(values: Record<string, number | string>, defaults: Record<string, number | string>): URLSearchParams {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) {
    const p = paramOf(v, defaults[k]);
    if (p !== null) q.set(k, p);
  }
  return q;
}

describe('robot settings in the URL', () => {
  it('defaults leave the URL empty; every key is r.-prefixed, so none is a coding Train key', () => {
    const { values, defaults } = robotSettingsParams(ROBOT_DEFAULTS);
    expect(urlOf(values, defaults).toString()).toBe('');
    expect(Object.keys(values).every((k) => k.startsWith('r.'))).toBe(true);
    expect(robotSettingsFromParams(new URLSearchParams('seed=9&temp=1.2&steps=3'))).toEqual(ROBOT_DEFAULTS);
  });

  it('round-trips any valid settings', () => {
    fc.assert(fc.property(
      fc.record({
        task: fc.constantFrom(...ALL_TASKS.map((t) => t.id)),
        split: fc.constantFrom('train' as const, 'heldout' as const),
        state: fc.integer({ min: 0, max: 99 }),
        source: fc.constantFrom('expert' as const, 'policy' as const),
        noise: fc.double({ min: 0, max: 1, noNaN: true }),
        temperature: fc.double({ min: 0, max: 2, noNaN: true }),
        seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        shaping: fc.constantFrom(...DENSE_REWARD_MODES),
      }),
      (s) => {
        const { values, defaults } = robotSettingsParams(s);
        expect(robotSettingsFromParams(urlOf(values, defaults))).toEqual(s);
      },
    ));
  });

  it('a hand-edited value out of range or unknown falls back to its default', () => {
    const s = robotSettingsFromParams(new URLSearchParams('r.task=nope&r.split=test&r.state=100&r.noise=1.5&r.temp=-1&r.seed=1.5&r.shaping=sum&r.source=human'));
    expect(s).toEqual(ROBOT_DEFAULTS);
    expect(robotSettingsFromParams(new URLSearchParams('r.state=99&r.shaping=max')).state).toBe(99);
  });
});

describe('rollout view', () => {
  it('a frame as opaque RGBA pixels, pixel for pixel', () => {
    const frame = renderScene(initialScene(ALL_TASKS[3], 'train', 2));
    const rgba = frameRgba(frame);
    expect(rgba.length).toBe(48 * 48 * 4);
    for (let i = 0; i < 48 * 48; i++) {
      expect([rgba[i * 4], rgba[i * 4 + 1], rgba[i * 4 + 2], rgba[i * 4 + 3]]).toEqual([frame.rgb[i * 3], frame.rgb[i * 3 + 1], frame.rgb[i * 3 + 2], 255]);
    }
    expect(() => frameRgba({ ...frame, rgb: frame.rgb.subarray(0, 10) })).toThrow(/6912 RGB bytes, got 10/);
  });

  it('8 scores at the steps frameIndices picks, clamped into [0, 1] for the dense reward', () => {
    const frames = scoredFrames(31, [-0.2, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.3]);
    expect(frames.map((f) => f.t)).toEqual([0, 4, 8, 12, 17, 21, 25, 30]);
    expect(frames[0].progress).toBe(0);
    expect(frames[7].progress).toBe(1);
    expect(frames[7].raw).toBe(1.3);
    expect(denseOf(frames, 'delta')).toBeCloseTo((0.7 + 0.9 + 1) / 3 - (0 + 0.1 + 0.2) / 3, 12);
    expect(denseOf(frames, 'final')).toBe(1);
    expect(denseOf(frames, 'max')).toBe(1);
    expect(() => scoredFrames(31, [0.1])).toThrow(/expected 8 progress scores, got 1/);
    expect(() => scoredFrames(31, [0, 0, 0, Number.NaN, 0, 0, 0, 0])).toThrow(/NaN/);
  });

  it('the dense reward is the shaping module\'s, for any scores', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 97 }), fc.array(fc.double({ min: -0.5, max: 1.5, noNaN: true }), { minLength: 8, maxLength: 8 }), fc.constantFrom(...DENSE_REWARD_MODES), (n, raw, mode) => {
      const frames = scoredFrames(n, raw);
      expect(denseOf(frames, mode)).toBe(denseReward(raw.map((r) => Math.min(1, Math.max(0, r))), mode));
    }));
  });

  it('says one sentence for each shaping mode', () => {
    for (const m of DENSE_REWARD_MODES) expect(SHAPING_EXPLAINED[m].split('. ').length).toBe(1);
  });
});
