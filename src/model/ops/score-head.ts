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

/** The logits z = x . w + b before the sigmoid (same double-precision sums as scoreHeadForward). */
export function scoreHeadLogits(x: Float32Array, w: Float32Array, b: number, rows: number, C: number): Float64Array {
  const z = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let acc = b;
    for (let c = 0; c < C; c++) acc += x[r * C + c] * w[c];
    z[r] = acc;
  }
  return z;
}

export interface ScoreHeadBackward {
  dx: Float32Array;
  dw: Float32Array;
  db: number;
}

/** Gradients of sum_r ds[r] * score[r]; `score` is the forward output. */
export function scoreHeadBackward(ds: Float32Array, score: Float32Array, x: Float32Array, w: Float32Array,
  rows: number, C: number): ScoreHeadBackward {
  const dz = new Float64Array(rows);
  for (let r = 0; r < rows; r++) dz[r] = ds[r] * score[r] * (1 - score[r]);
  return scoreHeadLogitBackward(dz, x, w, rows, C);
}

/**
 * Gradients of sum_r dz[r] * z[r] on the logits: for losses written on z (a pairwise loss on
 * differences of logits), which would lose precision through the sigmoid where it saturates.
 */
export function scoreHeadLogitBackward(dz: ArrayLike<number>, x: Float32Array, w: Float32Array, rows: number, C: number): ScoreHeadBackward {
  const dx = new Float32Array(rows * C);
  const dw = new Float64Array(C);
  let db = 0;
  for (let r = 0; r < rows; r++) {
    const d = dz[r];
    db += d;
    for (let c = 0; c < C; c++) {
      dx[r * C + c] = d * w[c];
      dw[c] += d * x[r * C + c];
    }
  }
  return { dx, dw: Float32Array.from(dw), db };
}
