// --rho on a paper-* preset: the share asked for is the share the anchors follow (issue 44 item 6).
// Before, the CLI set rho while the per-step rule read perStepAnchors.fraction, so a run asked for 0.25
// executed one group in eight and its report printed 0.25.
import { describe, expect, it } from 'vitest';
import { anchorShareConflict, anchorShareOf, withAnchorShare } from '../../../src/training/anchor-share.ts';
import { presetConfig, PRESETS } from '../../../src/training/presets.ts';
import { methodConfigOf, validateTrainerConfig } from '../../../src/training/trainer.ts';
import { MethodState } from '../../../src/wmrl/step.ts';

describe('the anchor share', () => {
  it('moves the anchors of a paper-* run: 2 of 8 groups at 0.25 instead of 1', () => {
    const base = presetConfig('paper-wmrl');
    const plannedAnchors = (c: typeof base) => new MethodState(methodConfigOf(c)).plan(8).anchors.length;
    expect(plannedAnchors(base)).toBe(1);
    const asked = withAnchorShare(base, 0.25);
    expect(plannedAnchors(asked)).toBe(2);
    expect(anchorShareOf(asked)).toBe(0.25);
    expect(asked.rho).toBe(0.25); // what reports print
  });

  it('is what our accumulator presets read as rho', () => {
    const c = withAnchorShare(presetConfig('wmrl'), 0.25);
    expect(c.perStepAnchors).toBeUndefined();
    expect(new MethodState(methodConfigOf(c)).plan(8).anchors.length).toBe(2);
  });

  it('cannot be held twice with two values: the trainer refuses such a config', () => {
    const twin = { ...presetConfig('paper-wmrl'), rho: 0.25 }; // what `--rho 0.25` used to make
    expect(anchorShareConflict(twin)).toMatch(/differ/);
    expect(() => validateTrainerConfig(twin)).toThrow(/perStepAnchors.fraction/);
    for (const p of PRESETS) expect(anchorShareConflict(p.config), p.id).toBeNull();
  });

  it('refuses a share outside [0, 1]', () => {
    expect(() => withAnchorShare(presetConfig('paper-wmrl'), 1.5)).toThrow(RangeError);
  });
});
