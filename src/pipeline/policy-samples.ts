// Sampling programs from the SFT policy, k per task card, with the CPU engine. One seeded generator
// per (task, sample index), so a sample does not depend on its batch neighbours.

import { CpuEngine } from '../engine/cpu/cpu-engine.ts';
import type { Model } from '../model/init.ts';
import type { Tokenizer } from '../model/tokenizer.ts';
import { hashString } from '../primitives/random.ts';
import { deriveSeed, mulberry32 } from '../primitives/random.ts';

export interface SampledProgram {
  taskId: string;
  card: string;
  index: number;
  program: string;
  /** the policy closed the program with eos (false: cut at the context length) */
  stopped: boolean;
  tokens: number;
}

export interface SampleOptions {
  seed: number;
  perTask: number;
  temperature: number;
  topK?: number;
  /** prompts per engine call */
  batch?: number;
  threads?: number;
}

export async function samplePrograms(model: Model, tokenizer: Tokenizer, tasks: readonly { id: string; card: string }[], options: SampleOptions): Promise<SampledProgram[]> {
  const engine = CpuEngine.fromModel(model, { numThreads: options.threads });
  const jobs = tasks.flatMap((t) => Array.from({ length: options.perTask }, (_, index) => ({ t, index })));
  const out: SampledProgram[] = [];
  const batch = options.batch ?? 16;
  try {
    for (let s = 0; s < jobs.length; s += batch) {
      const chunk = jobs.slice(s, s + batch);
      const prompts = chunk.map(({ t }) => tokenizer.encodeSequence(t.card).tokens);
      const longest = Math.max(...prompts.map((p) => p.length));
      const got = await engine.sample(prompts, {
        maxNewTokens: model.config.contextLength - longest,
        temperature: options.temperature,
        topK: options.topK,
        rngs: chunk.map(({ t, index }) => mulberry32(deriveSeed(options.seed, hashString(t.id), index))),
      });
      got.forEach((g, i) => {
        const body = g.stopped ? g.tokens.slice(0, -1) : g.tokens;
        out.push({ taskId: chunk[i].t.id, card: chunk[i].t.card, index: chunk[i].index, program: tokenizer.decode(body), stopped: g.stopped, tokens: g.tokens.length });
      });
    }
  } finally {
    await engine.dispose();
  }
  return out;
}
