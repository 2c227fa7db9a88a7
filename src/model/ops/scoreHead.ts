// Reference score head: a scalar in (0, 1) per row, sigmoid(x . w + b). The world model ends in it.

export function scoreHeadForward(x: Float32Array, w: Float32Array, b: number, rows: number, C: number): Float32Array {
  const s = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let z = b;
    for (let c = 0; c < C; c++) z += x[r * C + c] * w[c];
    s[r] = 1 / (1 + Math.exp(-z));
  }
  return s;
}

export interface ScoreHeadBackward {
  dx: Float32Array;
  dw: Float32Array;
  db: number;
}

/** Gradients of sum_r ds[r] * score[r]; `score` is the forward output. */
export function scoreHeadBackward(ds: Float32Array, score: Float32Array, x: Float32Array, w: Float32Array,
  rows: number, C: number): ScoreHeadBackward {
  const dx = new Float32Array(rows * C);
  const dw = new Float64Array(C);
  let db = 0;
  for (let r = 0; r < rows; r++) {
    const dz = ds[r] * score[r] * (1 - score[r]);
    db += dz;
    for (let c = 0; c < C; c++) {
      dx[r * C + c] = dz * w[c];
      dw[c] += dz * x[r * C + c];
    }
  }
  return { dx, dw: Float32Array.from(dw), db };
}
