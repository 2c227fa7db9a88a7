// Throughput of the project's WGSL matmul kernel (src/gpu/matmul.ts) on a device. Shared by
// bench/gpu-kernels.ts (all variants and sizes) and bench/models.ts (one figure per backend).
// Imports src/gpu: load it dynamically after startNodeWebGpu() (bench/node-webgpu.ts).
import { uploadBuffer, zerosBuffer } from '../src/gpu/buffers.ts';
import { encodeMatmul } from '../src/gpu/matmul.ts';

export const MATMUL_VARIANTS = [
  { name: 'NN', transA: false, transB: false },
  { name: 'NT', transA: false, transB: true },
  { name: 'TN', transA: true, transB: false },
] as const;

export interface MatmulTiming {
  gflops: number;
  msPerCall: number;
  reps: number;
}

/** A deterministic fill in [-0.5, 0.5) (an LCG: the values only need to be finite and varied). */
export function lcgFill(n: number, seed: number): Float32Array {
  const a = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    a[i] = s / 2 ** 32 - 0.5;
  }
  return a;
}

/**
 * GFLOP/s of C = op(A) op(B) for square n x n x n, every variant in `variants`: one call to compile
 * and first-touch, then doubling the calls per submission until one submission takes targetMs
 * (or maxReps calls).
 */
export async function measureGpuMatmul(device: GPUDevice, n: number,
  variants: readonly { name: string; transA: boolean; transB: boolean }[] = MATMUL_VARIANTS,
  targetMs = 500, maxReps = 256): Promise<Record<string, MatmulTiming>> {
  const a = uploadBuffer(device, lcgFill(n * n, 1));
  const b = uploadBuffer(device, lcgFill(n * n, 2));
  const c = zerosBuffer(device, n * n);
  const out: Record<string, MatmulTiming> = {};
  try {
    for (const { name, transA, transB } of variants) {
      const run = async (reps: number) => {
        const enc = device.createCommandEncoder();
        for (let r = 0; r < reps; r++) encodeMatmul(enc, device, { a, b, c, M: n, K: n, N: n, transA, transB });
        device.queue.submit([enc.finish()]);
        await device.queue.onSubmittedWorkDone();
      };
      await run(1);
      let reps = 1;
      let ms = 0;
      for (;;) {
        const t0 = performance.now();
        await run(reps);
        ms = performance.now() - t0;
        if (ms > targetMs || reps >= maxReps) break;
        reps *= 2;
      }
      out[name] = { gflops: (2 * n ** 3 * reps) / (ms / 1000) / 1e9, msPerCall: ms / reps, reps };
    }
  } finally {
    a.destroy();
    b.destroy();
    c.destroy();
  }
  return out;
}
