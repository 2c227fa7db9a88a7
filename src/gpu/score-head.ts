// Score head on the GPU: sigmoid(x . w + b) per row, and its backward; matches src/model/ops/score-head.ts.
import kernel from './kernels/score-head.wgsl?raw';
import { type BufferRef, encodeKernel, grid, uniformBuffer, withReductions } from './kernel.ts';

const code = withReductions(kernel);

/** score [rows] = sigmoid(x [rows, C] . w [C] + b [1]). */
export function encodeScoreHeadForward(encoder: GPUCommandEncoder, device: GPUDevice,
  x: BufferRef, w: BufferRef, b: BufferRef, score: BufferRef, rows: number, C: number): void {
  const p = uniformBuffer(device, [['u32', rows], ['u32', C]]);
  encodeKernel(encoder, device, { code, entryPoint: 'forward', label: 'score_head' }, [x, w, b, score, p], grid(rows));
}

export interface ScoreHeadBackwardArgs {
  ds: BufferRef; // [rows]
  score: BufferRef; // forward output [rows]
  x: BufferRef;
  w: BufferRef;
  dx: BufferRef; // out [rows, C]
  /** out [C + 1]: dw followed by db */
  dwb: BufferRef;
  rows: number;
  C: number;
}

export function encodeScoreHeadBackward(encoder: GPUCommandEncoder, device: GPUDevice, a: ScoreHeadBackwardArgs): void {
  const p = uniformBuffer(device, [['u32', a.rows], ['u32', a.C]]);
  encodeKernel(encoder, device, { code, entryPoint: 'backward_dx', label: 'score_head' },
    [a.ds, a.score, null, a.w, a.dx, null, p], grid(Math.ceil((a.rows * a.C) / 64)));
  encodeKernel(encoder, device, { code, entryPoint: 'backward_dw', label: 'score_head' },
    [a.ds, a.score, a.x, null, null, a.dwb, p], [Math.ceil((a.C + 1) / 64)]);
}
