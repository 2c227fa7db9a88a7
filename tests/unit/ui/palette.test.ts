// Preset colours: every line of one picture its own colour while there are colours to give, and the
// paper's rows the same colour under our reading and under the authors' rules.
import { describe, expect, it } from 'vitest';
import { presetColors } from '../../../src/ui/charts/palette.ts';

const MAIN_V3 = ['paper-grpo-all-real', 'paper-wmrl', 'paper-world-model-only', 'paper-ablation-neither', 'paper-ablation-denoise-only', 'paper-ablation-debias-only', 'paper-wmrl-unreadable'];

describe('preset colours', () => {
  it('gives the seven rows of the authors\' block seven colours, and the family B rows after them no repeat while colours last', () => {
    const c = presetColors(MAIN_V3);
    expect(new Set(c.values()).size).toBe(MAIN_V3.length);
    const more = [...MAIN_V3, 'paper-wmrl-percentile', 'paper-wmrl-mean-advantages', 'paper-wmrl-pava', 'paper-wmrl-ivw'];
    expect(new Set(presetColors(more).values()).size).toBe(more.length);
  });

  it("keeps a paper row's colour whatever else is drawn, under both readings", () => {
    expect(presetColors(['paper-wmrl']).get('paper-wmrl')).toBe(presetColors(['wmrl']).get('wmrl'));
    expect(presetColors(['x', 'paper-grpo-all-real']).get('paper-grpo-all-real')).toBe(presetColors(['grpo-all-real']).get('grpo-all-real'));
    expect(presetColors(['wmrl', 'grpo-all-real', 'wmrl-static', 'world-model-only', 'a', 'b']).get('a')).not.toBe(presetColors(['wmrl']).get('wmrl'));
  });
});
