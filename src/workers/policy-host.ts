// The policy as the training loop sees it (PolicyPort), over any PolicyEngine and the tokenizer:
// tokenise cards, sample with one seeded generator per program, decode; run the RL update.
// The policy worker hosts one of these; the Node tests use it directly with the CPU engine.
//
// Optimiser placement: with optimizer 'host' the update is engine.gradients + global-norm clip +
// AdamW here (the same functions, in the same order, as CpuEngine.update), so the AdamW moments are
// plain arrays that a checkpoint can carry and a resumed run continues exactly. With 'engine' (the
// WebGPU engine: the step stays on the GPU) the moments live in the engine, which has no way to
// export them: a checkpoint then holds the weights only and resuming restarts the moments.

import type { PolicyEngine } from '../engine/policy-engine.ts';
import { adamwByTensor } from '../engine/adamw-by-tensor.ts';
import type { AdamWConfig } from '../model/ops.ts';
import { clipByGlobalNorm, globalNorm } from '../model/ops.ts';
import type { ParameterLayout } from '../model/parameter-layout.ts';
import { buildLayout } from '../model/parameter-layout.ts';
import type { Tokenizer } from '../model/tokenizer.ts';
import type { RlLossOptions } from '../model/losses.ts';
import { mulberry32 } from '../wmrl/random.ts';
import type {
  OptimizerState, PolicyPort, PolicyUpdateRequest, PolicyUpdateResult, PolicyWeights, SampleBatchResult, SampleRequest, SamplingOptions,
} from '../wmrl/ports.ts';

export type OptimizerPlacement = 'host' | 'engine';

/** AdamW moments as in the SFT stage (src/pipeline/sft.ts). */
export const RL_ADAM = { beta1: 0.9, beta2: 0.95, eps: 1e-8 } as const;

export interface PolicyHostOptions {
  optimizer: OptimizerPlacement;
  /** Prompts per engine.sample call (the GPU engine's maxBatch). */
  maxSampleBatch?: number;
  /** Builds a second engine with the reference (initial) weights, for the KL term; only when klBeta > 0. */
  makeReference?: (params: Float32Array) => Promise<PolicyEngine>;
}

export class PolicyHost implements PolicyPort {
  readonly backend: string;
  private readonly layout: ParameterLayout;
  private params: Float32Array;
  private m: Float32Array;
  private v: Float32Array;
  private optimizerStep = 0;
  private readonly referenceParams: Float32Array;
  private reference: Promise<PolicyEngine> | null = null;

  private constructor(
    private readonly engine: PolicyEngine,
    private readonly tokenizer: Tokenizer,
    private readonly options: PolicyHostOptions,
    params: Float32Array,
  ) {
    this.backend = engine.backend;
    this.layout = buildLayout(engine.config);
    this.params = params;
    this.referenceParams = params.slice();
    this.m = new Float32Array(this.layout.totalLength);
    this.v = new Float32Array(this.layout.totalLength);
    if (tokenizer.vocabSize !== engine.config.vocabSize) {
      throw new Error(`policy: tokenizer vocabulary ${tokenizer.vocabSize} differs from the model's ${engine.config.vocabSize}`);
    }
  }

  static async create(engine: PolicyEngine, tokenizer: Tokenizer, options: PolicyHostOptions): Promise<PolicyHost> {
    return new PolicyHost(engine, tokenizer, options, await engine.getWeights());
  }

  get contextLength(): number {
    return this.engine.config.contextLength;
  }

  async sample(requests: readonly SampleRequest[], options: SamplingOptions): Promise<SampleBatchResult> {
    const t0 = performance.now();
    const prompts = requests.map((r) => this.tokenizer.encodeSequence(r.card).tokens);
    for (const p of prompts) {
      if (p.length >= this.contextLength) throw new Error(`policy: a task card takes ${p.length} tokens, the context holds ${this.contextLength}: no room for a program`);
    }
    const chunk = this.options.maxSampleBatch ?? 64;
    const samples: SampleBatchResult['samples'] = [];
    for (let start = 0; start < prompts.length; start += chunk) {
      const part = prompts.slice(start, start + chunk);
      const got = await this.engine.sample(part, {
        maxNewTokens: options.maxNewTokens,
        temperature: options.temperature,
        topK: options.topK,
        rngs: requests.slice(start, start + chunk).map((r) => mulberry32(r.seed)),
      });
      got.forEach((g, i) => {
        const body = g.stopped ? g.tokens.slice(0, -1) : g.tokens;
        samples.push({ promptTokens: part[i], programTokens: g.tokens, program: this.tokenizer.decode(body), stopped: g.stopped });
      });
    }
    return { samples, busyMs: performance.now() - t0 };
  }

  private referenceEngine(): Promise<PolicyEngine> {
    const make = this.options.makeReference;
    if (!make) throw new Error('policy: a KL penalty needs a reference engine (makeReference)');
    return (this.reference ??= make(this.referenceParams));
  }

  async update(request: PolicyUpdateRequest): Promise<PolicyUpdateResult> {
    const t0 = performance.now();
    const { batch, coefficients, normalizer } = request;
    if (coefficients.length !== batch.B) throw new Error(`policy: ${coefficients.length} coefficients for ${batch.B} sequences`);
    for (const c of coefficients) if (!Number.isFinite(c)) throw new Error(`policy: coefficient ${c} is not finite`);
    const epochs = request.epochs ?? 1;
    const adamw: AdamWConfig = { lr: request.lr, weightDecay: request.weightDecay, ...RL_ADAM };
    const objective: { kind: 'rl' } & RlLossOptions = { kind: 'rl', weights: coefficients, normalizer };
    // Ratio clipping matters only when the batch is reused; the old log-probs are the sampler's (pre-update).
    if (epochs > 1 && request.clipEpsilon) objective.clip = { epsilon: request.clipEpsilon, oldLogProbs: await this.engine.logProbs(batch, 'mask') };
    if (request.klBeta && request.klBeta > 0) objective.kl = { beta: request.klBeta, refLogProbs: await (await this.referenceEngine()).logProbs(batch, 'mask') };
    let last: PolicyUpdateResult | null = null;
    for (let e = 0; e < epochs; e++) {
      if (this.options.optimizer === 'engine') {
        const r = await this.engine.update(batch, objective, { adamw, maxGradNorm: request.maxGradNorm });
        this.optimizerStep = r.step;
        last = { loss: r.loss, gradNorm: r.gradNorm, clipScale: r.clipScale, clipFraction: r.clipFraction ?? 0, meanKl: r.meanKl ?? 0, optimizerStep: r.step, busyMs: 0 };
        continue;
      }
      const g = await this.engine.gradients(batch, objective);
      const gradNorm = globalNorm(g.grads);
      const clipScale = request.maxGradNorm > 0 ? clipByGlobalNorm(g.grads, request.maxGradNorm) : 1;
      this.optimizerStep += 1;
      adamwByTensor(this.layout, this.params, g.grads, this.m, this.v, this.optimizerStep, adamw);
      await this.engine.setWeights(this.params);
      last = { loss: g.loss, gradNorm, clipScale, clipFraction: g.clipFraction ?? 0, meanKl: g.meanKl ?? 0, optimizerStep: this.optimizerStep, busyMs: 0 };
    }
    if (!last) throw new Error('policy: no epoch ran');
    if (this.options.optimizer === 'engine') this.params = await this.engine.getWeights();
    return { ...last, busyMs: performance.now() - t0 };
  }

  async getWeights(): Promise<PolicyWeights> {
    const optimizer: OptimizerState | null =
      this.options.optimizer === 'host' ? { step: this.optimizerStep, m: this.m.slice(), v: this.v.slice() } : null;
    return { params: this.params.slice(), optimizer };
  }

  async setWeights(weights: PolicyWeights): Promise<void> {
    if (weights.params.length !== this.layout.totalLength) throw new Error(`policy: ${weights.params.length} weights, the model needs ${this.layout.totalLength}`);
    this.params = weights.params.slice();
    const opt = weights.optimizer;
    if (opt && this.options.optimizer === 'host') {
      this.m = opt.m.slice();
      this.v = opt.v.slice();
      this.optimizerStep = opt.step;
      await this.engine.setWeights(this.params);
    } else {
      // No moments to restore: start them afresh (the engine resets its own).
      this.m.fill(0);
      this.v.fill(0);
      this.optimizerStep = 0;
      await this.engine.setWeights(this.params, true);
    }
  }

  async dispose(): Promise<void> {
    await this.engine.dispose();
    if (this.reference) await (await this.reference).dispose();
  }
}
