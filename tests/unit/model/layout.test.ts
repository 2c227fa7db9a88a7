import { describe, expect, it } from 'vitest';
import { CONFIG_NAMES, namedConfig } from '../../../src/model/config.ts';
import { createModel, initParameters } from '../../../src/model/init.ts';
import { VIEW_ALIGNMENT, buildLayout, countParameters, view, weightDecayMask } from '../../../src/model/parameter-layout.ts';
import { testRng } from './test-models.ts';

describe('configurations and parameter layout', () => {
  it('has the documented parameter count per named config', () => {
    const counts = Object.fromEntries(CONFIG_NAMES.map((n) => [n, buildLayout(namedConfig(n)).numParameters]));
    // Closed forms: V*C + Tmax*C + L*(12 C^2 + 13 C) + 3C + 1 with mlpRatio 4.
    expect(counts).toEqual({ tiny: 7377, mini: 141_121, small: 957_313, medium: 2_915_521, base: 5_067_009 });
    for (const n of CONFIG_NAMES) expect(counts[n]).toBe(countParameters(namedConfig(n)));
    expect(counts.small).toBeGreaterThan(0.8e6);
    expect(counts.small).toBeLessThan(1.2e6);
    expect(counts.base).toBeGreaterThan(4.5e6);
    expect(counts.base).toBeLessThan(5.5e6);
  });

  it('lays out views in order, aligned, without overlap', () => {
    const layout = buildLayout(namedConfig('small'));
    expect(layout.views[0].name).toBe('wte');
    expect(layout.views[1].name).toBe('wpe');
    expect(layout.views[2].name).toBe('h0.ln1.g');
    expect(layout.views.at(-1)!.name).toBe('score.b');
    let end = 0;
    for (const v of layout.views) {
      expect(v.offset % VIEW_ALIGNMENT).toBe(0);
      expect(v.offset).toBeGreaterThanOrEqual(end);
      expect(v.size).toBe(v.shape.reduce((a, b) => a * b, 1));
      end = v.offset + v.size;
    }
    expect(layout.totalLength).toBeGreaterThanOrEqual(end);
    expect(layout.totalLength - end).toBeLessThan(VIEW_ALIGNMENT);
    expect(layout.byName.get('h3.mlp.wproj')!.shape).toEqual([512, 128]);
  });

  it('vocabulary size is part of the configuration', () => {
    const a = buildLayout(namedConfig('tiny', { vocabSize: 300 }));
    expect(a.byName.get('wte')!.shape).toEqual([300, 16]);
    expect(() => namedConfig('tiny', { nHeads: 3 })).toThrow(/divisible/);
    expect(() => namedConfig('tiny', { vocabSize: 0 })).toThrow(/vocabSize/);
  });

  it('initialises deterministically per seed with GPT-2 scales', () => {
    const config = namedConfig('mini');
    const a = initParameters(config, testRng(5));
    const b = initParameters(config, testRng(5));
    const c = initParameters(config, testRng(6));
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    const model = createModel(config, testRng(5));
    const std = (x: Float32Array) => Math.sqrt(x.reduce((s, v) => s + v * v, 0) / x.length);
    expect(std(view(model.layout, model.params, 'wte'))).toBeCloseTo(0.02, 2);
    expect(std(view(model.layout, model.params, 'h0.attn.wo'))).toBeCloseTo(0.02 / Math.sqrt(4), 2);
    expect(view(model.layout, model.params, 'h1.ln2.g').every((v) => v === 1)).toBe(true);
    expect(view(model.layout, model.params, 'h1.mlp.bfc').every((v) => v === 0)).toBe(true);
    // Alignment gaps stay zero.
    const mask = new Uint8Array(model.layout.totalLength);
    for (const v of model.layout.views) mask.fill(1, v.offset, v.offset + v.size);
    expect(model.params.filter((_, i) => !mask[i]).every((v) => v === 0)).toBe(true);
    const decay = weightDecayMask(model.layout);
    expect(decay[model.layout.byName.get('h0.attn.wqkv')!.offset]).toBe(1);
    expect(decay[model.layout.byName.get('h0.attn.bqkv')!.offset]).toBe(0);
  });
});
