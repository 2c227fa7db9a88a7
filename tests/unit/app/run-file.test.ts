// A run exported as a file and loaded back: equal to what was saved, weights, NaN and -0 included; any
// other file refused with a message that says why (and only with that kind of error).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRunFile, runFileText, RunFileError, type RunFileContent } from '../../../src/app/run-file.ts';
import { emptyCost } from '../../../src/training/cost.ts';
import { presetConfig } from '../../../src/training/presets.ts';
import type { TrainerCheckpoint } from '../../../src/training/trainer.ts';

function run(): RunFileContent {
  const config = presetConfig('wmrl', { steps: 3, groupsPerStep: 2, groupSize: 2, seed: 7 });
  const params = Float32Array.from({ length: 1000 }, (_, i) => Math.sin(i) * 1e-3);
  const checkpoint: TrainerCheckpoint = {
    format: 'wmrl-trainer', version: 1, config, step: 1,
    method: { note: 'opaque here' } as unknown as TrainerCheckpoint['method'],
    policy: { params, optimizer: { step: 1, m: params.map((x) => x / 2), v: params.map((x) => x * x) } },
    cost: emptyCost(),
  };
  return {
    label: 'my run', modelsLabel: 'committed models (test)', checkpoint,
    records: [{ step: 0, meanRealReward: null, meanReward: Number.NaN, extra: Number.POSITIVE_INFINITY, signed: -0 } as never],
    evaluation: null,
    evaluations: [],
  };
}

describe('a run file', () => {
  it('loads back equal to what was exported: weights, AdamW moments, NaN, infinities and -0 included', () => {
    const r = run();
    const back = parseRunFile(runFileText(r));
    expect(back).toEqual(r);
    expect(back.checkpoint.policy.params).toBeInstanceOf(Float32Array);
    expect(Array.from(back.checkpoint.policy.optimizer!.v)).toEqual(Array.from(r.checkpoint.policy.optimizer!.v));
    expect(Number.isNaN((back.records[0] as unknown as { meanReward: number }).meanReward)).toBe(true);
    expect(Object.is((back.records[0] as unknown as { signed: number }).signed, -0)).toBe(true);
  });

  it('says what is wrong with a file that is not such a run', () => {
    const text = runFileText(run());
    const refuse = (t: string) => expect(() => parseRunFile(t)).toThrow(RunFileError);
    refuse('');
    expect(() => parseRunFile('{"a":')).toThrow(/not JSON/);
    expect(() => parseRunFile('{"config": {}, "records": []}')).toThrow(/not a run exported from this page/);
    expect(() => parseRunFile(text.replace('"version":1', '"version":2'))).toThrow(/version 2/);
    const obj = JSON.parse(text);
    obj.run.checkpoint.config.groupSize = 1;
    expect(() => parseRunFile(JSON.stringify(obj))).toThrow(/settings are not valid.*groupSize/);
    const noWeights = JSON.parse(text);
    delete noWeights.run.checkpoint.policy.params;
    expect(() => parseRunFile(JSON.stringify(noWeights))).toThrow(/no policy weights/);
    const noSteps = JSON.parse(text);
    noSteps.run.records = 'none';
    expect(() => parseRunFile(JSON.stringify(noSteps))).toThrow(/no list of steps/);
    const cut = JSON.parse(text);
    cut.run.checkpoint.policy.params.$f32 = 'AAA=';
    expect(() => parseRunFile(JSON.stringify(cut))).toThrow(/damaged/);
    // an old export of this page (config, records, evaluation, no format) is refused, not half-read
    expect(() => parseRunFile(JSON.stringify({ config: run().checkpoint.config, records: [], evaluation: null }))).toThrow(/no format 'wmrl-run'/);
  });

  it('refuses any text or JSON value with a RunFileError, never another error (property)', () => {
    const only = (t: string) => {
      try {
        parseRunFile(t);
      } catch (e) {
        expect(e).toBeInstanceOf(RunFileError);
      }
    };
    fc.assert(fc.property(fc.string(), only));
    fc.assert(fc.property(fc.jsonValue(), (v) => only(JSON.stringify(v))));
    // the right envelope around anything
    fc.assert(fc.property(fc.jsonValue(), (v) => only(JSON.stringify({ format: 'wmrl-run', version: 1, run: v }))));
    fc.assert(fc.property(fc.jsonValue(), (v) => only(JSON.stringify({ format: 'wmrl-run', version: 1, run: { checkpoint: { format: 'wmrl-trainer', version: 1, step: 1, config: v } } }))));
  });
});
