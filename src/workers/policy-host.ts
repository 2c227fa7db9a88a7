// The policy as the training loop sees it (PolicyPort), over any PolicyEngine and the tokenizer:
// tokenise cards, sample with one seeded generator per program, decode; run the RL update.
// The policy worker hosts one of these; the Node tests use it directly with the CPU engine.
//
// The update is the engine's own (clip + AdamW on the CPU in JS, on WebGPU on the GPU); the AdamW
// state stays in the engine and a checkpoint takes it out and puts it back through
// getOptimizerState/setOptimizerState, so a resumed run continues exactly on either engine.

import { validateOptimizerState } from '../engine/optimizer-state.ts';
import type { PolicyEngine } from '../engine/policy-engine.ts';
import type { ParameterLayout } from '../model/parameter-layout.ts';
import { buildLayout } from '../model/parameter-layout.ts';
import type { Tokenizer } from '../model/tokenizer.ts';
import { updatePolicy } from '../training/policy-update.ts';
import { mulberry32 } from '../primitives/random.ts';
import { SPECIAL_TOKENS } from '../model/tokenizer.ts';
import type {
  PolicyPort, PolicyUpdateRequest, PolicyUpdateResult, PolicyWeights, SampleBatchResult, SampleRequest, SamplingOptions, SamplingProgress,
} from '../training/ports.ts';

export { RL_ADAM } from '../training/policy-update.ts';

export interface PolicyHostOptions {
  /** Prompts per engine.sample call (the GPU engine's maxBatch). */
  maxSampleBatch?: number;
  /** Builds a second engine with the reference (initial) weights, for the KL term; only when klBeta > 0. */
  makeReference?: (params: Float32Array) => Promise<PolicyEngine>;
}

export class PolicyHost implements PolicyPort {
  readonly backend: string;
  private readonly layout: ParameterLayout;
  private readonly referenceParams: Float32Array;
  private reference: Promise<PolicyEngine> | null = null;

  private constructor(
    private readonly engine: PolicyEngine,
    private readonly tokenizer: Tokenizer,
    private readonly options: PolicyHostOptions,
    initialParams: Float32Array,
  ) {
    this.backend = engine.backend;
    this.layout = buildLayout(engine.config);
    this.referenceParams = initialParams;
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

  async sample(requests: readonly SampleRequest[], options: SamplingOptions, onProgress?: (p: SamplingProgress) => void): Promise<SampleBatchResult> {
    const t0 = performance.now();
    const prompts = requests.map((r) => this.tokenizer.encodeSequence(r.card).tokens);
    for (const p of prompts) {
      if (p.length >= this.contextLength) throw new Error(`policy: a task card takes ${p.length} tokens, the context holds ${this.contextLength}: no room for a program`);
    }
    const chunk = this.options.maxSampleBatch ?? 64;
    const samples: SampleBatchResult['samples'] = [];
    const report = onProgress ? new ProgressReporter(requests.length, (t) => this.decodeProgram(t), (t) => this.tokenizer.decodeWritten(t), onProgress) : null;
    for (let start = 0; start < prompts.length; start += chunk) {
      const part = prompts.slice(start, start + chunk);
      const got = await this.engine.sample(part, {
        maxNewTokens: options.maxNewTokens,
        temperature: options.temperature,
        topK: options.topK,
        rngs: requests.slice(start, start + chunk).map((r) => mulberry32(r.seed)),
        ...(report ? { onTokens: (tokens: readonly (readonly number[])[], active: readonly boolean[]) => report.tokens(start, tokens, active) } : {}),
      });
      // An engine that decodes off the host reports nothing on the way: its chunk is told whole here.
      report?.tokens(start, got.map((g) => g.tokens), got.map(() => false), true);
      got.forEach((g, i) => {
        const body = g.stopped ? g.tokens.slice(0, -1) : g.tokens;
        samples.push({ promptTokens: part[i], programTokens: g.tokens, program: this.tokenizer.decode(body), stopped: g.stopped });
      });
    }
    return { samples, busyMs: performance.now() - t0 };
  }

  /** A program's text from its sampled tokens (a final eos dropped). */
  private decodeProgram(tokens: readonly number[]): string {
    const body = tokens.at(-1) === SPECIAL_TOKENS.eos ? tokens.slice(0, -1) : tokens;
    return this.tokenizer.decode([...body]);
  }

  private referenceEngine(): Promise<PolicyEngine> {
    const make = this.options.makeReference;
    if (!make) throw new Error('policy: a KL penalty needs a reference engine (makeReference)');
    return (this.reference ??= make(this.referenceParams));
  }

  async update(request: PolicyUpdateRequest): Promise<PolicyUpdateResult> {
    return updatePolicy(this.engine, request, this.options.makeReference ? () => this.referenceEngine() : undefined);
  }

  async getWeights(): Promise<PolicyWeights> {
    return { params: await this.engine.getWeights(), optimizer: await this.engine.getOptimizerState() };
  }

  /** Weights with their AdamW state resume exactly; without it (optimizer null) the moments start afresh. */
  async setWeights(weights: PolicyWeights): Promise<void> {
    const n = this.layout.totalLength;
    if (weights.params.length !== n) throw new Error(`policy: ${weights.params.length} weights, the model needs ${n}`);
    const opt = weights.optimizer;
    // checked before anything changes, so a bad checkpoint leaves the policy as it was
    if (opt) validateOptimizerState(opt, n, 'policy');
    await this.engine.setWeights(weights.params, !opt);
    if (opt) await this.engine.setOptimizerState(opt);
  }

  async dispose(): Promise<void> {
    await this.engine.dispose();
    if (this.reference) await (await this.reference).dispose();
  }
}

/** Minimum time between two reports that carry no newly finished program (ms): a worker's messages stay few. */
const REPORT_EVERY_MS = 150;

/**
 * Turns an engine's per-token view into SamplingProgress reports: every newly finished program at
 * once, the program being written at most every REPORT_EVERY_MS.
 */
class ProgressReporter {
  private readonly reported: boolean[];
  private readonly counts: number[];
  private done = 0;
  private last = -Infinity;

  constructor(
    private readonly total: number,
    private readonly decode: (tokens: readonly number[]) => string,
    /** The text of a program still being written: a prefix of what decode gives once it is finished. */
    private readonly decodeWritten: (tokens: readonly number[]) => string,
    private readonly send: (p: SamplingProgress) => void,
  ) {
    this.reported = new Array<boolean>(total).fill(false);
    this.counts = new Array<number>(total).fill(0);
  }

  tokens(offset: number, tokens: readonly (readonly number[])[], active: readonly boolean[], force = false): void {
    const finished: SamplingProgress['finished'] = [];
    let writing = -1;
    for (let b = 0; b < tokens.length; b++) {
      const index = offset + b;
      this.counts[index] = tokens[b].length;
      if (!active[b] && !this.reported[index]) {
        this.reported[index] = true;
        this.done++;
        finished.push({ index, program: this.decode(tokens[b]) });
      } else if (active[b] && writing < 0) writing = b;
    }
    const now = performance.now();
    if (finished.length === 0 && !force && now - this.last < REPORT_EVERY_MS) return;
    this.last = now;
    const current = writing < 0 ? null : { index: offset + writing, program: this.decodeWritten(tokens[writing]) };
    this.send({ total: this.total, done: this.done, tokens: this.counts.reduce((a, b) => a + b, 0), finished, current });
  }
}
