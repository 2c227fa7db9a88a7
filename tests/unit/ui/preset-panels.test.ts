// Each preset's panels say what they show, and why a panel is empty.
import { describe, expect, it } from 'vitest';
import { presetConfig } from '../../../src/training/presets.ts';
import { panelPlan } from '../../../src/ui/train/preset-panels.ts';

describe('panels follow the preset', () => {
  it('all-real has no world-model panels, world-model-only no anchors', () => {
    expect(panelPlan(presetConfig('grpo-all-real'), 0)).toMatchObject({ streams: 'all-real', note: expect.stringMatching(/world model is never asked/) });
    expect(panelPlan(presetConfig('paper-grpo-all-real'), 0).streams).toBe('all-real');
    expect(panelPlan(presetConfig('world-model-only'), 0)).toMatchObject({ streams: 'world-model-only', note: expect.stringMatching(/no anchors/) });
  });

  it('the calibrator caption names the rule the preset uses, and says when debiasing is off', () => {
    expect(panelPlan(presetConfig('wmrl'), 20).calibrationCaption).toMatch(/^Our isotonic calibrator .* after 20 anchor pairs/);
    expect(panelPlan(presetConfig('paper-wmrl'), 5).calibrationCaption).toMatch(/^The authors' binned calibrator \(10 bins\): the identity until 12 anchor pairs, then refit every 4 new pairs; 5 pairs so far/);
    expect(panelPlan(presetConfig('ablation-denoise-only'), 8).calibrationCaption).toMatch(/^Debiasing is off/);
  });

  it('fusion and gate by preset', () => {
    expect(panelPlan(presetConfig('ablation-debias-only'), 0).fusionCaption).toMatch(/^Denoising is off/);
    expect(panelPlan(presetConfig('paper-wmrl'), 0)).toMatchObject({ fusionCaption: expect.stringMatching(/authors' anchor weight/), gate: 'the compile gate' });
    expect(panelPlan(presetConfig('wmrl-static'), 0).gate).toBe('the static verifier');
    expect(panelPlan(presetConfig('wmrl'), 0).gate).toBeNull();
  });
});
