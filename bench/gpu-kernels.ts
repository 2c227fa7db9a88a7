// Matmul throughput of the WGSL kernels on whatever WebGPU adapter is present.
// Node: `npx tsx bench/gpu-kernels.ts [sizes...]` (Dawn; on a machine without a GPU set
// VK_ICD_FILENAMES to SwiftShader's ICD, as vite.config.ts does for the tests).
// Prints the adapter name and GFLOP/s per variant and size. SwiftShader numbers judge nothing
// about real GPUs: there the kernels are correctness-checked only.
import { register } from 'node:module';

// The kernels import WGSL with vite's `?raw`; outside vite this hook provides the same thing.
const rawHook = `
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
export async function resolve(specifier, context, next) {
  if (specifier.endsWith('?raw')) return { url: new URL(specifier, context.parentURL).href, shortCircuit: true };
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (url.endsWith('?raw')) {
    const text = await readFile(fileURLToPath(url.slice(0, -4)), 'utf8');
    return { format: 'module', source: 'export default ' + JSON.stringify(text), shortCircuit: true };
  }
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(rawHook)}`);

process.env.VK_ICD_FILENAMES ??= '/usr/lib/chromium/vk_swiftshader_icd.json';

const { create, globals } = await import('webgpu');
Object.assign(globalThis, globals);
// kept referenced for the whole run: Dawn crashes if its GPU object is collected
const gpu: GPU = create(['enable-dawn-features=disable_robustness']);
const { acquireDevice } = await import('../src/gpu/device.ts');
const { uploadBuffer, zerosBuffer } = await import('../src/gpu/buffers.ts');
const { encodeMatmul } = await import('../src/gpu/matmul.ts');

const { device, info } = await acquireDevice({ gpu });
console.log(`adapter: ${info.name} (vendor ${info.vendor || '?'}, architecture ${info.architecture || '?'})${info.isSoftware ? ' [software]' : ''}`);

const argSizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const sizes = argSizes.length ? argSizes : info.isSoftware ? [128, 256, 384] : [512, 1024, 2048, 4096];
const variants = [
  ['NN', false, false],
  ['NT', false, true],
  ['TN', true, false],
] as const;

function fill(n: number, seed: number): Float32Array {
  const a = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    a[i] = s / 2 ** 32 - 0.5;
  }
  return a;
}

for (const n of sizes) {
  const [M, K, N] = [n, n, n];
  const a = uploadBuffer(device, fill(M * K, 1));
  const b = uploadBuffer(device, fill(K * N, 2));
  const c = zerosBuffer(device, M * N);
  for (const [name, transA, transB] of variants) {
    const run = async (reps: number) => {
      const enc = device.createCommandEncoder();
      for (let r = 0; r < reps; r++) encodeMatmul(enc, device, { a, b, c, M, K, N, transA, transB });
      device.queue.submit([enc.finish()]);
      await device.queue.onSubmittedWorkDone();
    };
    await run(1); // pipeline compile and first-touch
    // aim for about half a second of work per measurement
    let reps = 1;
    let ms = 0;
    for (;;) {
      const t0 = performance.now();
      await run(reps);
      ms = performance.now() - t0;
      if (ms > 500 || reps >= 256) break;
      reps *= 2;
    }
    const gflops = (2 * M * K * N * reps) / (ms / 1000) / 1e9;
    console.log(`matmul ${name} ${M}x${K}x${N}: ${gflops.toFixed(2)} GFLOP/s (${(ms / reps).toFixed(2)} ms per call, ${reps} reps)`);
  }
  a.destroy();
  b.destroy();
  c.destroy();
}
device.destroy();
void gpu;
