// A model exported with its weights as initializers, read back into the flat layout: the same
// configuration and the same floats, so an engine built from it computes what the exported model does.
import { describe, expect, it } from 'vitest';
import { namedConfig } from '../../../src/model/config.ts';
import { createModel } from '../../../src/model/init.ts';
import { exportPolicyLogits, exportWorldModel } from '../../../src/model/onnx/export.ts';
import { modelFromExport } from '../../../src/model/onnx/exported-weights.ts';
import { testRng } from './fixtures.ts';

describe('modelFromExport', () => {
  it('gives back the configuration and every weight of an exported world model, bit for bit', () => {
    const config = namedConfig('mini', { vocabSize: 70, contextLength: 40, nLayers: 3, mlpRatio: 2 });
    const model = createModel(config, testRng(5));
    const back = modelFromExport(exportWorldModel(model), config.nHeads);
    expect(back.config).toEqual(config);
    expect(back.layout.totalLength).toBe(model.layout.totalLength);
    expect(Buffer.from(back.params.buffer).equals(Buffer.from(model.params.buffer))).toBe(true);
  });

  it('says which tensor is missing or which file is not a model', () => {
    const model = createModel(namedConfig('tiny'), testRng(6));
    // the policy's logits graph has no score head
    expect(() => modelFromExport(exportPolicyLogits(model), 2)).toThrow(/no tensor named 'score.w'/);
    expect(() => modelFromExport(exportWorldModel(model, 'flat-input'), 2)).toThrow(/no tensor named 'wte': weights exported as initializers are needed/);
    expect(() => modelFromExport(new Uint8Array([1, 2, 3, 250, 250]), 2)).toThrow(/exported model: not an ONNX model/);
  });
});
