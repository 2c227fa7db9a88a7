// A model exported with its weights as initializers (export.ts, 'initializers'), read back into the
// project's flat parameter layout: the committed world model ships only as ONNX, and the WebGPU engine
// that scores it on the policy's device needs its weights as one flat array. The initializers carry
// the layout's tensor names and shapes; the configuration follows from those shapes, except the number
// of heads (a reshape constant, not a tensor), which the caller gives.

import onnxProto from 'onnx-proto';
import type { ModelConfig } from '../config.ts';
import type { Model } from '../init.ts';
import { buildLayout, layerViewNames } from '../parameter-layout.ts';
import { DType } from './graph-builder.ts';

const { onnx } = onnxProto;

function fail(why: string): never {
  throw new Error(`exported model: ${why}`);
}

/** The float values of an initializer (raw little-endian bytes or floatData). */
function floatsOf(t: onnxProto.onnx.ITensorProto): Float32Array {
  if (t.dataType !== DType.float) fail(`tensor '${t.name}' is not float32 (data type ${t.dataType})`);
  const raw = t.rawData;
  if (raw && raw.length > 0) {
    if (raw.length % 4 !== 0) fail(`tensor '${t.name}' has ${raw.length} raw bytes, not a whole number of floats`);
    // a copy into a buffer of its own: raw may be a view into a larger one (Node's Buffer pool)
    return new Float32Array(new Uint8Array(raw).buffer);
  }
  return Float32Array.from(t.floatData ?? []);
}

/** The model inside `bytes` (an ONNX export of this project's transformer), weights in the flat layout. */
export function modelFromExport(bytes: Uint8Array, nHeads: number): Model {
  let proto: onnxProto.onnx.ModelProto;
  try {
    proto = onnx.ModelProto.decode(bytes);
  } catch (e) {
    fail(`not an ONNX model (${e instanceof Error ? e.message : String(e)})`);
  }
  const graph = proto.graph ?? fail('the model has no graph');
  const tensors = new Map((graph.initializer ?? []).map((t) => [t.name ?? '', t]));
  const dims = (name: string): number[] => (tensors.get(name) ?? fail(`no tensor named '${name}': weights exported as initializers are needed`)).dims?.map(Number) ?? [];
  const [vocabSize, dModel] = dims('wte');
  const [contextLength] = dims('wpe');
  let nLayers = 0;
  while (tensors.has(layerViewNames(nLayers).wqkv)) nLayers++;
  const fc = nLayers > 0 ? dims(layerViewNames(0).wfc) : fail('no transformer layer (h0.attn.wqkv)');
  // every LayerNormalization of the export has the same epsilon; it is stored as a float32
  const ln = (graph.node ?? []).find((n) => n.opType === 'LayerNormalization');
  const eps = ln?.attribute?.find((a) => a.name === 'epsilon')?.f ?? fail('no LayerNormalization epsilon');
  const config: ModelConfig = {
    vocabSize, contextLength, dModel, nLayers, nHeads,
    mlpRatio: fc[1] / dModel,
    layerNormEps: Number(Math.fround(eps).toPrecision(7)),
  };
  const layout = buildLayout(config);
  const params = new Float32Array(layout.totalLength);
  for (const v of layout.views) {
    const t = tensors.get(v.name) ?? fail(`no tensor named '${v.name}'`);
    const shape = t.dims?.map(Number) ?? [];
    if (shape.join('x') !== v.shape.join('x')) fail(`tensor '${v.name}' is [${shape.join(', ')}], the layout needs [${v.shape.join(', ')}]`);
    const values = floatsOf(t);
    if (values.length !== v.size) fail(`tensor '${v.name}' holds ${values.length} values for ${v.size}`);
    params.set(values, v.offset);
  }
  return { config, layout, params };
}
