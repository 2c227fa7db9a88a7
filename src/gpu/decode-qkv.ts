// Decoding, first kernel of a block (kernels/decode-qkv.wgsl): input (embeddings at layer 0), layer
// norm 1, q|k|v with bias, k and v appended to the caches at each row's position.
import kernel from './kernels/decode-qkv.wgsl?raw';
import { type Dispatch, prepareKernel, uniformBuffer } from './kernel.ts';
import { checkWorkgroupMemory, type DecodeLayerBuffers, rowConstants, rowWorkgroupBytes, withDecodeRow } from './decode-row.ts';

const code = withDecodeRow(kernel);

/** q goes to `q`, k and v into the caches at each row's position; at layer 0 x is written (the embedding). */
export interface DecodeQkvArgs extends DecodeLayerBuffers {
  lnG: number; lnB: number;
  /** attn.wqkv [C, 3C] and attn.bqkv [3C] */
  wqkv: number; bqkv: number;
  /** layer 0: wte and wpe offsets; the row's input is then their sum, also written to x */
  embed?: { wte: number; wpe: number };
}

export function decodeQkvKernel(device: GPUDevice, a: DecodeQkvArgs): Dispatch {
  checkWorkgroupMemory(device, 'decode_qkv', rowWorkgroupBytes(a.dims));
  const p = uniformBuffer(device, [['u32', a.lnG], ['u32', a.lnB], ['u32', a.wqkv], ['u32', a.bqkv],
    ['u32', a.embed?.wte ?? 0], ['u32', a.embed?.wpe ?? 0]]);
  return prepareKernel(device,
    { code, entryPoint: 'main', label: 'decode_qkv', constants: { ...rowConstants(a.dims), EMBED: a.embed ? 1 : 0, MAX_T: a.dims.maxT } },
    [a.weights, a.state, a.x, a.q, a.kCache, a.vCache, p], [Math.ceil((3 * a.dims.C) / 64), a.rows]);
}
