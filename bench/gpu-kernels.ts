// Matmul throughput of the WGSL kernels on whatever WebGPU adapter is present.
// Node: `npx tsx bench/gpu-kernels.ts [sizes...]` (Dawn; without VK_ICD_FILENAMES set it uses
// SwiftShader's ICD, as vite.config.ts does for the tests).
// Prints the adapter name and GFLOP/s per variant and size. SwiftShader numbers judge nothing
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
device.destroy();
