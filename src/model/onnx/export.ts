// The exported inference models, weights stored as initializers (or, for engines that update the
// weights, fed as one flat input):
//   policy logits   tokens [B, T] int64 -> logits [B, T, V]
//   policy decode   tokens [B, S], positions [B, S], attn_bias [B, 1, S, P+S], past_key_l / past_value_l
//                   [B, H, P, Dh] -> logits [B, S, V], present_key_l / present_value_l [B, H, P+S, Dh]
//   world model     tokens [B, T] int64, lengths [B] int64 -> score [B]
// Opset 17, IR version 8 (what onnxruntime-web 1.30 loads).

import { headDim } from '../config.ts';
import type { Model } from '../init.ts';
import { GraphBuilder } from './graph-builder.ts';
import type { WeightRef } from './transformer-graph.ts';
import { causalBias, decoder, embed, flatInputWeights, initializerWeights, leadingPositions, lmHead, scoreHead } from './transformer-graph.ts';

/** 'initializers': frozen weights inside the model; 'flat-input': a `params` input with the flat array. */
export type WeightMode = 'initializers' | 'flat-input';

function weights(g: GraphBuilder, model: Model, mode: WeightMode): WeightRef {
  return mode === 'initializers' ? initializerWeights(g, model.layout, model.params) : flatInputWeights(g, model.layout);
}

export function exportPolicyLogits(model: Model, mode: WeightMode = 'initializers'): Uint8Array {
  const { config } = model;
  const g = new GraphBuilder('wmrl_policy_logits');
  const w = weights(g, model, mode);
  const tokens = g.input('tokens', 'int64', ['B', 'T']);
  const x0 = embed(g, w, tokens, leadingPositions(g, w, tokens));
  const dec = decoder(g, config, w, x0, { bias: causalBias(g, config, tokens) });
  const { logits } = lmHead(g, config, w, dec.hidden, tokens);
  g.output(logits, 'logits', 'float', ['B', 'T', config.vocabSize]);
  return g.encode('WMRL policy: next-token logits for every position.');
}

export function decodeInputNames(layer: number): { pastKey: string; pastValue: string; presentKey: string; presentValue: string } {
  return {
    pastKey: `past_key_${layer}`,
    pastValue: `past_value_${layer}`,
    presentKey: `present_key_${layer}`,
    presentValue: `present_value_${layer}`,
  };
}

export function exportPolicyDecoder(model: Model, mode: WeightMode = 'initializers'): Uint8Array {
  const { config } = model;
  const H = config.nHeads;
  const Dh = headDim(config);
  const g = new GraphBuilder('wmrl_policy_decode');
  const w = weights(g, model, mode);
  const tokens = g.input('tokens', 'int64', ['B', 'S']);
  const positions = g.input('positions', 'int64', ['B', 'S']);
  const bias = g.input('attn_bias', 'float', ['B', 1, 'S', 'L']);
  const past = [];
  for (let l = 0; l < config.nLayers; l++) {
    const n = decodeInputNames(l);
    past.push({ k: g.input(n.pastKey, 'float', ['B', H, 'P', Dh]), v: g.input(n.pastValue, 'float', ['B', H, 'P', Dh]) });
  }
  const x0 = embed(g, w, tokens, g.op('Gather', [w('wpe'), positions], { axis: 0 }));
  const dec = decoder(g, config, w, x0, { bias, past });
  const { logits } = lmHead(g, config, w, dec.hidden, tokens);
  g.output(logits, 'logits', 'float', ['B', 'S', config.vocabSize]);
  dec.layers.forEach((layer, l) => {
    const n = decodeInputNames(l);
    g.output(layer.k, n.presentKey, 'float', ['B', H, 'L', Dh]);
    g.output(layer.v, n.presentValue, 'float', ['B', H, 'L', Dh]);
  });
  return g.encode('WMRL policy: one incremental decoding step with past keys and values.');
}

export function exportWorldModel(model: Model, mode: WeightMode = 'initializers'): Uint8Array {
  const { config } = model;
  const g = new GraphBuilder('wmrl_world_model');
  const w = weights(g, model, mode);
  const tokens = g.input('tokens', 'int64', ['B', 'T']);
  const lengths = g.input('lengths', 'int64', ['B']);
  const x0 = embed(g, w, tokens, leadingPositions(g, w, tokens));
  const dec = decoder(g, config, w, x0, { bias: causalBias(g, config, tokens) });
  const { score } = scoreHead(g, config, w, dec.hidden, tokens, lengths);
  g.output(score, 'score', 'float', ['B']);
  return g.encode('WMRL world model: predicted score in (0, 1) of each (card, program) sequence.');
}
