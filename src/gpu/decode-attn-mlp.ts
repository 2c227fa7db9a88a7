// Decoding, the rest of a block (kernels/decode-attn-mlp.wgsl): attention over each row's cache,
// output projection and residual, layer norm 2, MLP and residual, x updated in place.
import kernel from './kernels/decode-attn-mlp.wgsl?raw';
import tanhGelu from './kernels/tanh-gelu.wgsl?raw';
import { type Dispatch, MAX_WORKGROUPS_PER_DIM, prepareKernel, uniformBuffer } from './kernel.ts';
import { checkWorkgroupMemory, type DecodeLayerBuffers, rowConstants, rowWorkgroupBytes, withDecodeRow } from './decode-row.ts';

const code = withDecodeRow(kernel, tanhGelu);

/** Reads q and the caches; x is read and written in place. */
export interface DecodeAttnMlpArgs extends DecodeLayerBuffers {
  wo: number; bo: number; lnG: number; lnB: number; wfc: number; bfc: number; wproj: number; bproj: number;
}

export function decodeAttnMlpKernel(device: GPUDevice, a: DecodeAttnMlpArgs): Dispatch {
  const d = a.dims;
  if (a.rows > MAX_WORKGROUPS_PER_DIM) throw new Error(`decode_attn_mlp: ${a.rows} rows exceed ${MAX_WORKGROUPS_PER_DIM}`);
  // att, x2 [C], act [F], scores [maxT], the row's position
  checkWorkgroupMemory(device, 'decode_attn_mlp', rowWorkgroupBytes(d) + 4 * (2 * d.C + d.F + d.maxT + 1));
  const p = uniformBuffer(device, [['u32', a.wo], ['u32', a.bo], ['u32', a.lnG], ['u32', a.lnB],
    ['u32', a.wfc], ['u32', a.bfc], ['u32', a.wproj], ['u32', a.bproj]]);
  const Dh = d.C / d.H;
  return prepareKernel(device,
    { code, entryPoint: 'main', label: 'decode_attn_mlp',
      constants: { ...rowConstants(d), H: d.H, DH: Dh, F: d.F, MAX_T: d.maxT, SCALE: 1 / Math.sqrt(Dh) } },
    [a.weights, a.state, a.x, a.q, a.kCache, a.vCache, p], [a.rows]);
}
