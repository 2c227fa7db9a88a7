// Model benchmarks: forward, forward+backward and sampling throughput, matmul GFLOP/s, world-model
// programs scored per second and peak memory, for each backend available in this process
// ('cpu-onnx-wasm': the CPU engine's graphs on onnxruntime-web; 'reference-ts': the plain TS oracle;
// 'webgpu': the WebGPU policy engine on Dawn, when an adapter is found, see bench/webgpu-backend.ts).
// Figures are measured, never assumed; each timing takes the best of a few repetitions.

import type { ConfigName } from '../src/model/config.ts';
import { namedConfig } from '../src/model/config.ts';
import { createModel } from '../src/model/init.ts';
import { sftLoss, tokenLogProbs, worldModelScores } from '../src/model/losses.ts';
import { matmul } from '../src/model/ops/reference-ops.ts';
import { buildLayout } from '../src/model/parameter-layout.ts';
import { sample } from '../src/model/sampling.ts';
import { Tokenizer } from '../src/model/tokenizer.ts';
import { CpuEngine } from '../src/engine/cpu/cpu-engine.ts';
import { exportWorldModel } from '../src/model/onnx/export.ts';
import { GraphBuilder } from '../src/model/onnx/graph-builder.ts';
import { configureOrt, createWasmSession, floatTensor, ort } from '../src/engine/onnx/ort-runtime.ts';
import { WorldModelRunner } from '../src/engine/onnx/world-model-runner.ts';
import { mulberry32 } from '../src/primitives/random.ts';
import { benchPrograms, benchPrompts, best, randomBatch } from './measure.ts';
import { startNodeWebGpu } from './node-webgpu.ts';
import type { WebGpuCountsOnly, WebGpuFigures } from './webgpu-backend.ts';

export interface BackendFigures {
  forward_tokens_per_s: number;
  forward_backward_tokens_per_s: number;
  sampling_tokens_per_s: number;
  world_model_programs_per_s: number;
  /** one-off cost before the first sampling call after a weight update (decoder session rebuild), seconds */
  sampling_rebuild_s?: number;
  /** shapes used, so figures can be compared */
  shapes: { train_batch: number; train_seq: number; sample_batch: number; sample_new_tokens: number; wm_batch: number; wm_seq: number };
}

export interface ConfigFigures {
  parameters: number;
  backends: { 'cpu-onnx-wasm'?: BackendFigures; 'reference-ts'?: BackendFigures; webgpu?: WebGpuFigures | WebGpuCountsOnly };
}

export type WebGpuStatus =
  | {
    available: true;
    adapter: { name: string; vendor: string; architecture: string; isSoftware: boolean };
    /** what the figures are good for on this adapter */
    figures: 'correctness-only (software adapter)' | 'performance';
    configs: ConfigName[];
  }
  | { available: false; reason: string };

export interface ModelBenchResult {
  machine: { platform: string; arch: string; cpus: number; node: string; wasm_threads: number; gpu: string };
  matmul_gflops: Record<string, { n: number; gflops: number }>;
  configs: Record<string, ConfigFigures>;
  webgpu: WebGpuStatus;
  /** forward+backward tokens/s of the CPU engine over the reference, for 'small' (or the largest config run) */
  cpu_vs_reference_train_speedup: number;
  speedup_config: string;
  peak_rss_mb: number;
  seconds: number;
}

async function onnxMatmulGflops(n: number): Promise<number> {
  const g = new GraphBuilder('matmul');
  g.input('a', 'float', [n, n]);
  g.input('b', 'float', [n, n]);
  g.output(g.op('MatMul', ['a', 'b']), 'c', 'float', [n, n]);
  const session = await createWasmSession(g.encode());
  const rng = mulberry32(n);
  const a = Float32Array.from({ length: n * n }, () => rng() - 0.5);
  const feeds = { a: floatTensor(a, [n, n]), b: floatTensor(a.slice(), [n, n]) };
  await session.run(feeds);
  const s = await best(5, () => session.run(feeds));
  await session.release();
  return (2 * n ** 3) / s / 1e9;
}

export interface ModelBenchOptions {
  /** configurations measured on the CPU engine and the reference */
  configs: ConfigName[];
  /**
   * configurations measured on the WebGPU engine, and whether to fall back to SwiftShader when
   * VK_ICD_FILENAMES is unset; false skips WebGPU
   */
  webgpu: { configs: ConfigName[]; swiftShaderFallback: boolean } | false;
  /** print progress lines on stderr */
  log?: (line: string) => void;
}

export async function runModelBench(options: ModelBenchOptions): Promise<ModelBenchResult> {
  const log = options.log ?? (() => undefined);
  const t0 = performance.now();
  configureOrt();
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const result: ModelBenchResult = {
    machine: {
      platform: process.platform,
      arch: process.arch,
      cpus: (await import('node:os')).cpus().length,
      node: process.version,
      wasm_threads: ort.env.wasm.numThreads ?? 1,
      gpu: 'none',
    },
    matmul_gflops: {},
    configs: {},
    webgpu: { available: false, reason: 'skipped (--no-webgpu)' },
    cpu_vs_reference_train_speedup: 0,
    speedup_config: '',
    peak_rss_mb: 0,
    seconds: 0,
  };
  try {
    const n = 256;
    result.matmul_gflops['cpu-onnx-wasm'] = { n, gflops: await onnxMatmulGflops(n) };
    const rng = mulberry32(3);
    const a = Float32Array.from({ length: n * n }, () => rng() - 0.5);
    result.matmul_gflops['reference-ts'] = { n, gflops: (2 * n ** 3) / (await best(2, () => matmul(a, a, n, n, n))) / 1e9 };
    const c = new Float32Array(n * n);
    tunedMatmul(a, a, c, n, n, n);
    const want = matmul(a, a, n, n, n);
    for (let i = 0; i < want.length; i++) if (Math.abs(want[i] - c[i]) > 1e-3) throw new Error(`tuned matmul disagrees with the reference at ${i}`);
    result.matmul_gflops['tuned-ts'] = { n, gflops: (2 * n ** 3) / (await best(5, () => tunedMatmul(a, a, c, n, n, n))) / 1e9 };
    log(`matmul ${JSON.stringify(result.matmul_gflops)}`);

    for (const name of options.configs) {
      const tokenizerless = namedConfig(name);
      const model = createModel(tokenizerless, mulberry32(1));
      const T = tokenizerless.contextLength;
      const V = tokenizerless.vocabSize;
      const backends: ConfigFigures['backends'] = {};

      // CPU engine (onnxruntime-web wasm)
      const engine = CpuEngine.fromModel(model);
      const B = Math.max(1, Math.min(16, Math.floor(4096 / T)));
      const batch = randomBatch(model, B, T, 5);
      await engine.logProbs(batch);
      const fwd = await best(3, () => engine.logProbs(batch));
      await engine.gradients(batch, { kind: 'sft' });
      const fb = await best(3, () => engine.gradients(batch, { kind: 'sft' }));
      const SB = 8;
      const newTokens = Math.min(64, T - 16);
      const prompts = benchPrompts(SB, 16, V);
      const sampleOnce = () => engine.sample(prompts, { maxNewTokens: newTokens, temperature: 1, rngs: prompts.map((_, i) => mulberry32(i)), stopToken: -1 });
      await sampleOnce();
      const ss = await best(2, sampleOnce);
      await engine.setWeights(await engine.getWeights());
      const afterUpdate = await best(1, sampleOnce);
      const tokenizer = new Tokenizer([]);
      const wmModel = createModel(namedConfig(name, { vocabSize: Math.max(V, tokenizer.vocabSize) }), mulberry32(2));
      const runner = await WorldModelRunner.create(exportWorldModel(wmModel), tokenizer, wmModel.config, { prefer: 'wasm' });
      const WB = 32;
      const wmSeq = Math.min(T, 200);
      const seqs = benchPrograms(WB, wmSeq);
      await runner.scoreSequences(seqs);
      const ws = await best(2, () => runner.scoreSequences(seqs));
      await runner.release();
      await engine.dispose();
      const cpu: BackendFigures = {
        forward_tokens_per_s: (B * T) / fwd,
        forward_backward_tokens_per_s: (B * T) / fb,
        sampling_tokens_per_s: (SB * newTokens) / ss,
        world_model_programs_per_s: WB / ws,
        sampling_rebuild_s: Math.max(0, afterUpdate - ss),
        shapes: { train_batch: B, train_seq: T, sample_batch: SB, sample_new_tokens: newTokens, wm_batch: WB, wm_seq: wmSeq },
      };
      backends['cpu-onnx-wasm'] = cpu;
      log(`${name} cpu-onnx-wasm ${JSON.stringify(cpu)}`);

      // Reference (plain TS): same sequence length, batch 1 (it is slow); per-token rates are comparable.
      const RB = name === 'tiny' ? 8 : 1;
      const RT = T;
      const rbatch = randomBatch(model, RB, RT, 6);
      const rf = await best(1, () => tokenLogProbs(model, rbatch));
      const rfb = await best(1, () => sftLoss(model, rbatch));
      const rNew = name === 'tiny' ? 8 : 4;
      const rs = await best(1, () => sample(model, prompts[0], { maxNewTokens: rNew, temperature: 1, rng: mulberry32(1), stopToken: -1 }));
      const rw = await best(1, () => worldModelScores(model, randomBatch(model, 1, wmSeq, 7)));
      const reference: BackendFigures = {
        forward_tokens_per_s: (RB * RT) / rf,
        forward_backward_tokens_per_s: (RB * RT) / rfb,
        sampling_tokens_per_s: rNew / rs,
        world_model_programs_per_s: 1 / rw,
        shapes: { train_batch: RB, train_seq: RT, sample_batch: 1, sample_new_tokens: rNew, wm_batch: 1, wm_seq: wmSeq },
      };
      backends['reference-ts'] = reference;
      log(`${name} reference-ts ${JSON.stringify(reference)}`);
      result.configs[name] = { parameters: model.layout.numParameters, backends };
      // the largest configuration run so far, 'small' preferred (below)
      if (result.speedup_config !== 'small') {
        result.cpu_vs_reference_train_speedup = cpu.forward_backward_tokens_per_s / reference.forward_backward_tokens_per_s;
        result.speedup_config = name;
      }
    }

    if (options.webgpu) await runWebGpu(result, options.webgpu, log);
  } finally {
    clearInterval(sampler);
  }
  result.peak_rss_mb = Math.round(Math.max(peak, process.memoryUsage().rss) / 2 ** 20);
  result.seconds = (performance.now() - t0) / 1000;
  return result;
}

/** The 'webgpu' backend: adapter, matmul kernel and the engine per configuration, into `result`. */
async function runWebGpu(result: ModelBenchResult, options: { configs: ConfigName[]; swiftShaderFallback: boolean }, log: (line: string) => void): Promise<void> {
  const webgpu = await startNodeWebGpu({ swiftShaderFallback: options.swiftShaderFallback });
  if (!webgpu.ok) {
    result.webgpu = { available: false, reason: webgpu.reason };
    log(`webgpu: not available (${webgpu.reason})`);
    return;
  }
  const { info, device } = webgpu.context;
  result.machine.gpu = `${info.name}${info.isSoftware ? ' (software)' : ''}`;
  result.webgpu = {
    available: true,
    adapter: { name: info.name, vendor: info.vendor, architecture: info.architecture, isSoftware: info.isSoftware },
    figures: info.isSoftware ? 'correctness-only (software adapter)' : 'performance',
    configs: options.configs,
  };
  log(`webgpu: ${info.name}${info.isSoftware ? ' [software: figures check correctness only]' : ''}`);
  const { measureGpuMatmul } = await import('./gpu-matmul.ts');
  const { benchWebGpuConfig, countWebGpuSampling } = await import('./webgpu-backend.ts');
  const nn = [{ name: 'NN', transA: false, transB: false }];
  const n = 256;
  result.matmul_gflops.webgpu = { n, gflops: (await measureGpuMatmul(device, n, nn)).NN.gflops };
  if (!info.isSoftware) {
    // 256^3 is far too small to fill a real GPU
    const large = 2048;
    result.matmul_gflops['webgpu-large'] = { n: large, gflops: (await measureGpuMatmul(device, large, nn)).NN.gflops };
  }
  log(`matmul webgpu ${JSON.stringify(result.matmul_gflops.webgpu)}`);
  for (const name of options.configs) {
    const model = createModel(namedConfig(name), mulberry32(1));
    const figures = await benchWebGpuConfig(webgpu.context, name, model);
    result.configs[name] ??= { parameters: model.layout.numParameters, backends: {} };
    result.configs[name].backends.webgpu = figures;
    log(`${name} webgpu ${JSON.stringify(figures)}`);
  }
  // the sampling counts are exact on any adapter, so 'small' always has them (issue 45's targets)
  if (!options.configs.includes('small')) {
    const counts = await countWebGpuSampling(webgpu.context, 'small');
    result.configs.small ??= { parameters: buildLayout(namedConfig('small')).numParameters, backends: {} };
    result.configs.small.backends.webgpu = counts;
    log(`small webgpu ${JSON.stringify(counts)}`);
  }
  for (const figures of Object.values(result.configs)) {
    const cpu = figures.backends['cpu-onnx-wasm'];
    if (cpu && figures.backends.webgpu) figures.backends.webgpu.sampling.cpu_tokens_per_s = cpu.sampling_tokens_per_s;
  }
}

/**
 * A tuned single-thread TS matmul (i-k-j order, four output rows at a time so each loaded B row is
 * used four times, float32 accumulators in the output row): the best a pure-TS CPU path could build on.
 */
export function tunedMatmul(a: Float32Array, b: Float32Array, c: Float32Array, M: number, K: number, N: number): void {
  c.fill(0);
  let i = 0;
  for (; i + 4 <= M; i += 4) {
    const c0 = i * N, c1 = c0 + N, c2 = c1 + N, c3 = c2 + N;
    for (let k = 0; k < K; k++) {
      const a0 = a[i * K + k], a1 = a[(i + 1) * K + k], a2 = a[(i + 2) * K + k], a3 = a[(i + 3) * K + k];
      const bo = k * N;
      for (let j = 0; j < N; j++) {
        const bv = b[bo + j];
        c[c0 + j] += a0 * bv;
        c[c1 + j] += a1 * bv;
        c[c2 + j] += a2 * bv;
        c[c3 + j] += a3 * bv;
      }
    }
  }
  for (; i < M; i++) {
    for (let k = 0; k < K; k++) {
      const av = a[i * K + k];
      const bo = k * N;
      for (let j = 0; j < N; j++) c[i * N + j] += av * b[bo + j];
    }
  }
}
