// All parameters live in ONE flat Float32Array; this table names each tensor's view (offset, shape).
// The order is fixed and shared by the CPU reference, the GPU engine and ONNX export:
//
//   wte [V, C]            token embedding, also the output projection (tied)
//   wpe [Tmax, C]         learned positions
//   for each layer l = 0..L-1, prefix `h{l}.`:
//     ln1.g [C], ln1.b [C]
//     attn.wqkv [C, 3C]   columns: q (heads as contiguous Dh chunks), then k, then v
//     attn.bqkv [3C]
//     attn.wo [C, C], attn.bo [C]
//     ln2.g [C], ln2.b [C]
//     mlp.wfc [C, 4C], mlp.bfc [4C]
//     mlp.wproj [4C, C], mlp.bproj [C]
//   lnf.g [C], lnf.b [C]
//   score.w [C], score.b [1]   the world model's scalar head
//
// Matrices are stored [in, out] row-major, so a linear layer is y = x W + b with no transpose.
// Every view starts at a multiple of 64 floats (256 bytes, WebGPU's minimum storage-buffer offset
// alignment), so a GPU engine can bind any tensor as a sub-range of one buffer. The gaps are zero and
// receive zero gradient.

import type { ModelConfig } from './config.ts';
import { mlpWidth, validateConfig } from './config.ts';

export const VIEW_ALIGNMENT = 64;

export interface ParamView {
  name: string;
  offset: number;
  shape: number[];
  size: number;
  /** Whether AdamW applies weight decay (matrices and embeddings yes; biases and LayerNorm no). */
  decay: boolean;
}

export interface ParameterLayout {
  views: ParamView[];
  byName: Map<string, ParamView>;
  /** Length of the flat array, including alignment gaps. */
  totalLength: number;
  /** Number of real parameters (sum of view sizes). */
  numParameters: number;
}

export interface LayerViewNames {
  ln1g: string;
  ln1b: string;
  wqkv: string;
  bqkv: string;
  wo: string;
  bo: string;
  ln2g: string;
  ln2b: string;
  wfc: string;
  bfc: string;
  wproj: string;
  bproj: string;
}

export function layerViewNames(l: number): LayerViewNames {
  const p = `h${l}.`;
  return {
    ln1g: `${p}ln1.g`,
    ln1b: `${p}ln1.b`,
    wqkv: `${p}attn.wqkv`,
    bqkv: `${p}attn.bqkv`,
    wo: `${p}attn.wo`,
    bo: `${p}attn.bo`,
    ln2g: `${p}ln2.g`,
    ln2b: `${p}ln2.b`,
    wfc: `${p}mlp.wfc`,
    bfc: `${p}mlp.bfc`,
    wproj: `${p}mlp.wproj`,
    bproj: `${p}mlp.bproj`,
  };
}

export function buildLayout(config: ModelConfig): ParameterLayout {
  validateConfig(config);
  const C = config.dModel;
  const F = mlpWidth(config);
  const views: ParamView[] = [];
  let offset = 0;
  const add = (name: string, shape: number[], decay: boolean): void => {
    const size = shape.reduce((a, b) => a * b, 1);
    views.push({ name, offset, shape, size, decay });
    offset += Math.ceil(size / VIEW_ALIGNMENT) * VIEW_ALIGNMENT;
  };
  add('wte', [config.vocabSize, C], true);
  add('wpe', [config.contextLength, C], true);
  for (let l = 0; l < config.nLayers; l++) {
    const n = layerViewNames(l);
    add(n.ln1g, [C], false);
    add(n.ln1b, [C], false);
    add(n.wqkv, [C, 3 * C], true);
    add(n.bqkv, [3 * C], false);
    add(n.wo, [C, C], true);
    add(n.bo, [C], false);
    add(n.ln2g, [C], false);
    add(n.ln2b, [C], false);
    add(n.wfc, [C, F], true);
    add(n.bfc, [F], false);
    add(n.wproj, [F, C], true);
    add(n.bproj, [C], false);
  }
  add('lnf.g', [C], false);
  add('lnf.b', [C], false);
  add('score.w', [C], true);
  add('score.b', [1], false);
  return {
    views,
    byName: new Map(views.map((v) => [v.name, v])),
    totalLength: offset,
    numParameters: views.reduce((a, v) => a + v.size, 0),
  };
}

/** The closed-form parameter count, for checking the layout and for documentation. */
export function countParameters(config: ModelConfig): number {
  const { vocabSize: V, contextLength: T, dModel: C, nLayers: L } = config;
  const F = mlpWidth(config);
  const perLayer = 2 * C + (3 * C * C + 3 * C) + (C * C + C) + 2 * C + (C * F + F) + (F * C + C);
  return V * C + T * C + L * perLayer + 2 * C + C + 1;
}

/** A subarray view (shares memory) of one named tensor in a flat array with this layout. */
export function view(layout: ParameterLayout, flat: Float32Array, name: string): Float32Array {
  const v = layout.byName.get(name);
  if (!v) throw new Error(`parameter layout: no tensor named '${name}'`);
  return flat.subarray(v.offset, v.offset + v.size);
}

/** A mask over the flat array: 1 where AdamW applies weight decay, 0 elsewhere (gaps included). */
export function weightDecayMask(layout: ParameterLayout): Float32Array {
  const mask = new Float32Array(layout.totalLength);
  for (const v of layout.views) if (v.decay) mask.fill(1, v.offset, v.offset + v.size);
  return mask;
}
