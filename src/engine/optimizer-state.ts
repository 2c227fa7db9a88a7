// Checks an AdamW state before an engine adopts it: a state from another model size would otherwise
// be copied partly (CPU) or fail deep inside a buffer write (WebGPU).

/** AdamW state, plain data (for checkpoints); null in a weights-only checkpoint (the moments restart). */
export interface OptimizerState {
  step: number;
  m: Float32Array;
  v: Float32Array;
}

export function validateOptimizerState(state: OptimizerState, parameters: number, who: string): void {
  if (state.m.length !== parameters || state.v.length !== parameters) {
    throw new Error(`${who}: optimizer state has m of ${state.m.length} and v of ${state.v.length} floats, the layout needs ${parameters}`);
  }
  if (!(Number.isInteger(state.step) && state.step >= 0)) {
    throw new Error(`${who}: optimizer step ${state.step} is not a non-negative integer`);
  }
}
