// Matmul throughput of the WGSL kernels on whatever WebGPU adapter is present.
// Node: `npx tsx bench/gpu-kernels.ts [sizes...]` (Dawn; without VK_ICD_FILENAMES set it uses
// SwiftShader's ICD, as vite.config.ts does for the tests).
// Prints the adapter name, GFLOP/s per variant and size, the CPU cost of encoding one dispatch
// (what a sampled token pays some 80 times on 'small', docs/engines.md), and the GPU-API calls of a
// sampling call on 'mini' and 'small', cold and warm (bench/gpu-sampling-calls.ts). SwiftShader numbers judge nothing
// about real GPUs: there the kernels are correctness-checked only.
import { startNodeWebGpu } from './node-webgpu.ts';

const webgpu = await startNodeWebGpu({ swiftShaderFallback: true });
if (!webgpu.ok) throw new Error(`bench:gpu: ${webgpu.reason}`);
const { device, info } = webgpu.context;
const { MATMUL_VARIANTS, measureGpuMatmul } = await import('./gpu-matmul.ts');
console.log(`adapter: ${info.name} (vendor ${info.vendor || '?'}, architecture ${info.architecture || '?'})${info.isSoftware ? ' [software]' : ''}`);

const argSizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const sizes = argSizes.length ? argSizes : info.isSoftware ? [128, 256, 384] : [512, 1024, 2048, 4096];

for (const n of sizes) {
  const timings = await measureGpuMatmul(device, n, MATMUL_VARIANTS);
  for (const [name, t] of Object.entries(timings)) {
    console.log(`matmul ${name} ${n}x${n}x${n}: ${t.gflops.toFixed(2)} GFLOP/s (${t.msPerCall.toFixed(2)} ms per call, ${t.reps} reps)`);
  }
}
// Encoding alone: small matmuls into one encoder that is never submitted, so only the CPU side counts
// (the kernel cache lookup, the bind group, the pass). The bindings repeat, as a sampled program's do
// from one token to the next, so after the first round the kept bind groups serve. Median of 7 rounds of 4,000.
const { encodeMatmul } = await import('../src/gpu/matmul.ts');
const tile = () => device.createBuffer({ size: 64 * 64 * 4, usage: GPUBufferUsage.STORAGE });
const [a, b, c] = [tile(), tile(), tile()];
const perDispatch: number[] = [];
for (let round = 0; round < 7; round++) {
  const enc = device.createCommandEncoder();
  const t0 = performance.now();
  for (let i = 0; i < 4000; i++) encodeMatmul(enc, device, { a, b, c, M: 8, K: 64, N: 64, transB: i % 2 === 0 });
  perDispatch.push(((performance.now() - t0) * 1000) / 4000);
  enc.finish();
}
perDispatch.sort((x, y) => x - y);
console.log(`encoding one dispatch (CPU side, never submitted): ${perDispatch[3].toFixed(1)} us median of 7 rounds (${perDispatch[0].toFixed(1)}-${perDispatch[6].toFixed(1)})`);
// What one sampling call asks of the GPU API, counted (bench/gpu-sampling-calls.ts).
const { printSamplingCalls } = await import('./gpu-sampling-calls.ts');
await printSamplingCalls(device);
device.destroy();
