// Decoding, the head (kernels/decode-logits.wgsl): final layer norm and tied-embedding logits per row.
import kernel from './kernels/decode-logits.wgsl?raw';
import { type BufferRef, type Dispatch, prepareKernel, uniformBuffer } from './kernel.ts';
import { checkWorkgroupMemory, type DecodeDims, rowConstants, rowWorkgroupBytes, withDecodeRow } from './decode-row.ts';

const code = withDecodeRow(kernel);

export interface DecodeLogitsArgs {
  /** the flat parameter buffer; lnf.g, lnf.b and wte are offsets (floats) into it */
  weights: BufferRef;
  lnG: number; lnB: number; wte: number;
  /** RowState [rows] */
  state: BufferRef;
  /**
   * row r's input is x[r * rowStride + (atPos ? pos_r : 0)]: rowStride 1 for a token step's [rows, C];
   * T with atPos for the prefill's [rows, T, C], whose row r ends at its prompt's last position
   */
  x: BufferRef;
  rowStride: number;
  atPos: boolean;
  /** out: [rows, V] */
  logits: BufferRef;
  rows: number;
  dims: DecodeDims;
}

export function decodeLogitsKernel(device: GPUDevice, a: DecodeLogitsArgs): Dispatch {
  checkWorkgroupMemory(device, 'decode_logits', rowWorkgroupBytes(a.dims));
  const p = uniformBuffer(device, [['u32', a.lnG], ['u32', a.lnB], ['u32', a.wte], ['u32', a.rowStride], ['u32', a.atPos ? 1 : 0]]);
  return prepareKernel(device,
    { code, entryPoint: 'main', label: 'decode_logits', constants: { ...rowConstants(a.dims), V: a.dims.V } },
    [a.weights, a.state, a.x, a.logits, p], [Math.ceil(a.dims.V / 64), a.rows]);
}
