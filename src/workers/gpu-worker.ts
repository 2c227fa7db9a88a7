// The GPU worker: owns the WebGPU device so that long dispatches never block the page.
import * as Comlink from 'comlink';
import { acquireDevice, type GpuContext } from '../primitives/webgpu-device.ts';
import { readFloat32, uploadBuffer, zerosBuffer } from '../gpu/buffers.ts';
import { encodeMatmul } from '../gpu/matmul.ts';
import { matmul } from '../model/ops/reference-ops.ts';
import { mulberry32 } from '../primitives/random.ts';
import type { GpuProbe, GpuWorkerApi, KernelCheck } from './gpu-api.ts';

let context: Promise<GpuContext> | null = null;
const device = () => (context ??= acquireDevice());

const api: GpuWorkerApi = {
  async probe(): Promise<GpuProbe> {
    try {
      const { adapter, info } = await device();
      return {
        adapter: {
          vendor: info.vendor,
          architecture: info.architecture,
          device: info.device,
          description: info.description,
          isFallbackAdapter: info.isSoftware,
        },
        maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
        maxBufferSize: adapter.limits.maxBufferSize,
      };
    } catch (e) {
      context = null;
      return { adapter: null, error: e instanceof Error ? e.message : String(e) };
    }
  },

  async kernelCheck(seed: number): Promise<KernelCheck> {
    const { device: dev } = await device();
    // Odd sizes on purpose: they exercise the kernel's edge tiles.
    const [M, K, N] = [67, 45, 71];
    const rand = mulberry32(seed);
    const a = Float32Array.from({ length: M * K }, () => rand() * 2 - 1);
    const b = Float32Array.from({ length: K * N }, () => rand() * 2 - 1);
    const want = matmul(a, b, M, K, N);

    const t0 = performance.now();
    const bufA = uploadBuffer(dev, a);
    const bufB = uploadBuffer(dev, b);
    const bufC = zerosBuffer(dev, M * N);
    const encoder = dev.createCommandEncoder();
    encodeMatmul(encoder, dev, { a: bufA, b: bufB, c: bufC, M, K, N });
    dev.queue.submit([encoder.finish()]);
    const got = await readFloat32(dev, bufC, M * N);
    const gpuMs = performance.now() - t0;
    for (const buf of [bufA, bufB, bufC]) buf.destroy();

    let maxAbsError = 0;
    for (let i = 0; i < want.length; i++) maxAbsError = Math.max(maxAbsError, Math.abs(got[i] - want[i]));
    const tolerance = 1e-4;
    return { kernel: 'matmul', shape: [M, K, N], maxAbsError, tolerance, passed: maxAbsError <= tolerance, gpuMs };
  },
};

Comlink.expose(api);
