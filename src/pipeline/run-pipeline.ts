// The models pipeline, stage by stage: corpus -> tokenizer -> SFT policy -> executed samples ->
// world-model data -> world model (leave-tasks-out validation, then the final fit) -> export.
// Each stage writes its product to a work folder, so a later stage can be rerun alone (--stage).
// Everything is seeded; no stage stops on wall-clock time.

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cpus } from 'node:os';
import type { ConfigName, ModelConfig } from '../model/config.ts';
import { namedConfig } from '../model/config.ts';
import { loadCheckpoint, saveCheckpoint } from '../model/checkpoint.ts';
import type { Model } from '../model/init.ts';
import { exportWorldModel } from '../model/onnx/export.ts';
import { Tokenizer } from '../model/tokenizer.ts';
import { trainTokenizer } from '../model/tokenizer-training.ts';
import type { TaskRegistry } from '../tasks/task-registry.ts';
import type { CorpusEntry, CorpusTask } from './corpus.ts';
import { buildCorpus, corpusTexts, trainingTasks } from './corpus.ts';
import type { GradedRun, RunJobs } from './graded-runs.ts';
import { runAndGrade } from './graded-runs.ts';
import { describeFile, writeManifest } from './manifest.ts';
import type { SampledProgram } from './policy-samples.ts';
import { samplePrograms } from './policy-samples.ts';
import { trainSft } from './sft.ts';
import type { SftResult } from './sft.ts';
import type { WmExample } from './wm-data.ts';
import { referenceExamples, worldModelTasks } from './wm-data.ts';
import type { WmTrainOptions, WmValidation } from './world-model.ts';
import { chooseHeldOutTasks, trainWorldModel, validateLeaveTasksOut } from './world-model.ts';

export const STAGES = ['corpus', 'tokenizer', 'sft', 'samples', 'wm-data', 'wm', 'export'] as const;
export type Stage = (typeof STAGES)[number];

export interface PipelineSettings {
  seed: number;
  configName: ConfigName;
  contextLength: number;
  vocabSize: number;
  composedPerTask: number;
  sft: { steps: number; batchSize: number; peakLr: number; warmup: number; weightDecay: number; maxGradNorm: number };
  samples: { perTask: number; temperature: number; topK: number; timeoutMs: number; poolSize: number; execute: boolean };
  wm: { steps: number; batchSize: number; peakLr: number; warmup: number; weightDecay: number; maxGradNorm: number; holdOutTasks: number };
  /** restrict to these task ids (quick runs); undefined = all */
  tasks?: string[];
  threads?: number;
}

export function fullSettings(seed: number, configName: ConfigName = 'small'): PipelineSettings {
  return {
    seed,
    configName,
    contextLength: 320,
    vocabSize: 1024,
    composedPerTask: 60,
    sft: { steps: 400, batchSize: 16, peakLr: 2e-3, warmup: 20, weightDecay: 0.01, maxGradNorm: 1 },
    samples: { perTask: 4, temperature: 0.6, topK: 0, timeoutMs: 30_000, poolSize: 2, execute: true },
    wm: { steps: 60, batchSize: 16, peakLr: 5e-4, warmup: 10, weightDecay: 0.01, maxGradNorm: 1, holdOutTasks: 3 },
  };
}

/** A minutes-not-hours run on the 'tiny' network, for tests: no sandbox, reference programs only. */
export function quickSettings(seed: number): PipelineSettings {
  return {
    seed,
    configName: 'tiny',
    contextLength: 320,
    vocabSize: 700,
    composedPerTask: 2,
    sft: { steps: 3, batchSize: 4, peakLr: 1e-2, warmup: 1, weightDecay: 0.01, maxGradNorm: 1 },
    samples: { perTask: 1, temperature: 1, topK: 0, timeoutMs: 10_000, poolSize: 1, execute: false },
    wm: { steps: 3, batchSize: 8, peakLr: 1e-2, warmup: 1, weightDecay: 0.01, maxGradNorm: 1, holdOutTasks: 1 },
    tasks: ['mlbench_Glass', 'vega_cars', 'sklearn_diabetes', 'mlbench_Ionosphere'],
  };
}

export interface PipelineContext {
  root: string;
  workDir: string;
  outDir: string;
  registry: TaskRegistry;
  settings: PipelineSettings;
  /** an executor for untrusted programs (the browser sandbox); required when samples.execute */
  openSandbox?: (poolSize: number) => Promise<{ runMany: RunJobs; close(): Promise<void> }>;
  log: (line: string) => void;
  /**
   * Export with the world model of another models folder instead of this build's wm.ckpt: for a
   * policy-only build (e.g. the larger SFT policy of claim 4, stages corpus..sft) that the app must
   * still load. The folder's tokenizer must be this build's, byte for byte.
   */
  worldModelFrom?: string;
}

interface SampleRecord extends SampledProgram {
  split: string;
  run?: GradedRun;
}

interface Figures {
  machine: string;
  stageSeconds: Partial<Record<Stage, number>>;
  [key: string]: unknown;
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
function writeJson(path: string, value: unknown): void {
  writeFileSync(path, JSON.stringify(value, null, 1) + '\n');
}

export function machineDescription(): string {
  const c = cpus();
  return `${c.length} cores (${c[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${process.platform}`;
}

async function allTasks(ctx: PipelineContext): Promise<CorpusTask[]> {
  const tasks = await ctx.registry.list({ includeSmoke: true });
  const keep = ctx.settings.tasks;
  return keep ? tasks.filter((t) => keep.includes(t.id)) : tasks;
}

function modelConfig(s: PipelineSettings, vocabSize: number): ModelConfig {
  return namedConfig(s.configName, { vocabSize, contextLength: s.contextLength });
}

function loadTokenizer(ctx: PipelineContext): Tokenizer {
  return Tokenizer.fromJSON(readJson(join(ctx.workDir, 'tokenizer.json')));
}

/** A checkpoint from disk. Copied into a plain Uint8Array: a Node Buffer's slice() is a view into a shared pool, which loadCheckpoint's weight copy would pick up. */
function readCheckpoint(path: string): ReturnType<typeof loadCheckpoint> {
  return loadCheckpoint(new Uint8Array(readFileSync(path)));
}

function loadModel(path: string): Model {
  return readCheckpoint(path).model;
}

function meanOf(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;
}

const STAGE_RUNNERS: Record<Stage, (ctx: PipelineContext, figures: Figures) => Promise<void>> = {
  async corpus(ctx, figures) {
    const corpus = buildCorpus(await allTasks(ctx), { seed: ctx.settings.seed, composedPerTask: ctx.settings.composedPerTask });
    writeJson(join(ctx.workDir, 'corpus.json'), corpus);
    figures.corpus = {
      entries: corpus.length,
      tasks: new Set(corpus.map((e) => e.taskId)).size,
      reference: corpus.filter((e) => e.origin === 'reference').length,
      composed: corpus.filter((e) => e.origin === 'composed').length,
      chars: corpus.reduce((a, e) => a + e.card.length + e.source.length, 0),
    };
    ctx.log(`corpus: ${JSON.stringify(figures.corpus)}`);
  },

  async tokenizer(ctx, figures) {
    const corpus = readJson<CorpusEntry[]>(join(ctx.workDir, 'corpus.json'));
    const tokenizer = trainTokenizer(corpusTexts(corpus), { vocabSize: ctx.settings.vocabSize });
    writeJson(join(ctx.workDir, 'tokenizer.json'), tokenizer.toJSON());
    const lengths = corpus.map((e) => tokenizer.encodeSequence(e.card, e.source).tokens.length).sort((a, b) => a - b);
    const q = (p: number): number => lengths[Math.floor(p * (lengths.length - 1))];
    figures.tokenizer = { vocabSize: tokenizer.vocabSize, requested: ctx.settings.vocabSize, sequenceTokens: { mean: meanOf(lengths), p50: q(0.5), p90: q(0.9), p99: q(0.99), max: q(1) }, contextLength: ctx.settings.contextLength };
    ctx.log(`tokenizer: ${JSON.stringify(figures.tokenizer)}`);
  },

  async sft(ctx, figures) {
    const corpus = readJson<CorpusEntry[]>(join(ctx.workDir, 'corpus.json'));
    const tokenizer = loadTokenizer(ctx);
    const config = modelConfig(ctx.settings, tokenizer.vocabSize);
    const r: SftResult = await trainSft(corpus, tokenizer, config, { seed: ctx.settings.seed, threads: ctx.settings.threads, log: ctx.log, ...ctx.settings.sft });
    writeFileSync(join(ctx.workDir, 'sft.ckpt'), new Uint8Array(saveCheckpoint(r.model, tokenizer, { stage: 'sft', seed: ctx.settings.seed, steps: ctx.settings.sft.steps })));
    const every = Math.max(1, Math.floor(r.curve.length / 60));
    figures.sft = {
      seconds: r.seconds,
      steps: ctx.settings.sft.steps,
      tokensSeen: r.tokensSeen,
      tokensPerSecond: r.tokensSeen / r.seconds,
      initialLoss: r.initialLoss,
      finalLoss: r.finalLoss,
      skippedTooLong: r.skippedTooLong,
      curve: r.curve.filter((p, i) => i % every === 0 || i === r.curve.length - 1).map((p) => ({ step: p.step, loss: Number(p.loss.toFixed(4)), seconds: Number(p.seconds.toFixed(1)) })),
    };
    ctx.log(`sft: ${r.seconds.toFixed(0)} s, loss ${r.initialLoss.toFixed(3)} -> ${r.finalLoss.toFixed(3)}`);
  },

  async samples(ctx, figures) {
    const tokenizer = loadTokenizer(ctx);
    const model = loadModel(join(ctx.workDir, 'sft.ckpt'));
    const tasks = (await allTasks(ctx)).filter((t) => t.role === 'scored');
    const s = ctx.settings.samples;
    const t0 = performance.now();
    const sampled = await samplePrograms(model, tokenizer, tasks, { seed: ctx.settings.seed + 7, perTask: s.perTask, temperature: s.temperature, topK: s.topK, threads: ctx.settings.threads });
    const sampleSeconds = (performance.now() - t0) / 1000;
    const split = new Map(tasks.map((t) => [t.id, t.split]));
    const records: SampleRecord[] = sampled.map((p) => ({ ...p, split: split.get(p.taskId) ?? '?' }));
    ctx.log(`samples: ${records.length} programs sampled in ${sampleSeconds.toFixed(0)} s (${records.filter((r) => r.stopped).length} closed with eos)`);
    let runSeconds = 0;
    if (s.execute) {
      if (!ctx.openSandbox) throw new Error('samples: executing sampled programs needs the browser sandbox');
      const t1 = performance.now();
      const sandbox = await ctx.openSandbox(s.poolSize);
      try {
        const runs = await runAndGrade(ctx.registry, records.map((r) => ({ taskId: r.taskId, program: r.program })), sandbox.runMany, s.timeoutMs);
        runs.forEach((run, i) => (records[i].run = run));
      } finally {
        await sandbox.close();
      }
      runSeconds = (performance.now() - t1) / 1000;
    }
    writeJson(join(ctx.workDir, 'samples.json'), records);
    const summary = (which: string): Record<string, unknown> => {
      const rs = records.filter((r) => r.split === which);
      const ran = rs.filter((r) => r.run);
      const valid = ran.filter((r) => r.run!.status === 'ok');
      const scored = ran.filter((r) => !Number.isNaN(r.run!.y));
      // avg@k: mean over tasks of the mean true score of the task's k samples (failed = 0)
      const byTask = new Map<string, number[]>();
      for (const r of scored) byTask.set(r.taskId, [...(byTask.get(r.taskId) ?? []), r.run!.y]);
      return {
        programs: rs.length,
        closedWithEos: rs.filter((r) => r.stopped).length / Math.max(1, rs.length),
        executed: ran.length,
        validRunRate: ran.length ? valid.length / ran.length : null,
        tasksWithLeaderboard: byTask.size,
        avgAtK: byTask.size ? meanOf([...byTask.values()].map(meanOf)) : null,
        statuses: Object.fromEntries([...new Set(ran.map((r) => r.run!.status))].map((st) => [st, ran.filter((r) => r.run!.status === st).length])),
      };
    };
    figures.samples = { k: s.perTask, temperature: s.temperature, sampleSeconds, runSeconds, executed: s.execute, train: summary('train'), heldout: summary('heldout') };
    ctx.log(`samples: ${JSON.stringify(figures.samples)}`);
  },

  async 'wm-data'(ctx, figures) {
    const tasks = worldModelTasks(await allTasks(ctx));
    const examples: WmExample[] = [];
    for (const t of tasks) examples.push(...referenceExamples(t, await ctx.registry.loadLeaderboard(t.id)));
    const samplesPath = join(ctx.workDir, 'samples.json');
    const trainIds = new Set(tasks.map((t) => t.id));
    let fromSamples = 0;
    if (existsSync(samplesPath)) {
      for (const r of readJson<SampleRecord[]>(samplesPath)) {
        // only executed samples of training tasks with a true score (held-out tasks never train the world model)
        if (!r.run || !trainIds.has(r.taskId) || r.split !== 'train' || Number.isNaN(r.run.y) || r.run.y === null) continue;
        examples.push({ taskId: r.taskId, card: r.card, program: r.program, y: r.run.y, origin: 'sample' });
        fromSamples++;
      }
    }
    writeJson(join(ctx.workDir, 'wm-data.json'), examples);
    figures.wmData = { examples: examples.length, reference: examples.length - fromSamples, samples: fromSamples, tasks: tasks.length, meanY: meanOf(examples.map((e) => e.y)) };
    ctx.log(`wm-data: ${JSON.stringify(figures.wmData)}`);
  },

  async wm(ctx, figures) {
    const tokenizer = loadTokenizer(ctx);
    const init = loadModel(join(ctx.workDir, 'sft.ckpt'));
    const examples = readJson<WmExample[]>(join(ctx.workDir, 'wm-data.json'));
    const opts: WmTrainOptions = { seed: ctx.settings.seed, threads: ctx.settings.threads, log: ctx.log, ...ctx.settings.wm };
    const heldOut = chooseHeldOutTasks(examples, ctx.settings.wm.holdOutTasks, ctx.settings.seed);
    ctx.log(`wm: leave-tasks-out validation, holding out ${heldOut.join(', ')}`);
    const validation: WmValidation = await validateLeaveTasksOut(init, tokenizer, examples, heldOut, opts);
    ctx.log(`wm validation: ${JSON.stringify(validation)}`);
    const final = await trainWorldModel(init, tokenizer, examples, opts);
    writeFileSync(join(ctx.workDir, 'wm.ckpt'), new Uint8Array(saveCheckpoint(final.model, tokenizer, { stage: 'wm', seed: ctx.settings.seed, steps: ctx.settings.wm.steps })));
    const tail = final.curve.slice(-10);
    figures.wm = { validation, final: { seconds: final.seconds, examples: examples.length, truncated: final.truncated, firstLoss: final.curve[0]?.loss, finalLoss: meanOf(tail.map((p) => p.loss)) } };
  },

  async export(ctx, figures) {
    const tokenizer = loadTokenizer(ctx);
    const policy = readCheckpoint(join(ctx.workDir, 'sft.ckpt'));
    const tokenizerJson = JSON.stringify(tokenizer.toJSON());
    let worldModelOnnx: Uint8Array;
    let worldModelParameters: number | string;
    if (ctx.worldModelFrom) {
      const theirs = JSON.stringify(readJson<unknown>(join(ctx.worldModelFrom, 'tokenizer.json')));
      if (theirs !== tokenizerJson) throw new Error(`export: ${relative(ctx.root, ctx.worldModelFrom)} has another tokenizer; its world model cannot read this build's tokens`);
      worldModelOnnx = new Uint8Array(readFileSync(join(ctx.worldModelFrom, 'world-model.onnx')));
      worldModelParameters = `from ${relative(ctx.root, ctx.worldModelFrom) || '.'}`;
    } else {
      const wm = loadModel(join(ctx.workDir, 'wm.ckpt'));
      worldModelOnnx = exportWorldModel(wm, 'initializers');
      worldModelParameters = wm.layout.numParameters;
    }
    rmSync(ctx.outDir, { recursive: true, force: true });
    mkdirSync(ctx.outDir, { recursive: true });
    writeFileSync(join(ctx.outDir, 'policy.ckpt'), new Uint8Array(saveCheckpoint(policy.model, tokenizer, { ...policy.meta, settings: ctx.settings })));
    writeFileSync(join(ctx.outDir, 'world-model.onnx'), worldModelOnnx);
    writeJson(join(ctx.outDir, 'tokenizer.json'), tokenizer.toJSON());
    figures.export = { policyParameters: policy.model.layout.numParameters, worldModelParameters };
  },
};

/** Runs the given stages in order; figures accumulate in the work folder's figures.json. */
export async function runPipeline(ctx: PipelineContext, stages: readonly Stage[]): Promise<Record<string, unknown>> {
  mkdirSync(ctx.workDir, { recursive: true });
  const figuresPath = join(ctx.workDir, 'figures.json');
  const figures: Figures = existsSync(figuresPath) ? readJson<Figures>(figuresPath) : { machine: machineDescription(), stageSeconds: {} };
  figures.machine = machineDescription();
  figures.settings = ctx.settings;
  for (const stage of stages) {
    const t0 = performance.now();
    ctx.log(`== stage ${stage}`);
    await STAGE_RUNNERS[stage](ctx, figures);
    figures.stageSeconds[stage] = Number(((performance.now() - t0) / 1000).toFixed(2));
    writeJson(figuresPath, figures);
  }
  if (stages.includes('export')) {
    const tokenizer = loadTokenizer(ctx);
    const config = modelConfig(ctx.settings, tokenizer.vocabSize);
    const files = [
      describeFile(ctx.outDir, 'policy.ckpt', 'SFT policy: src/model/checkpoint.ts format, weights + config + tokenizer'),
      describeFile(ctx.outDir, 'world-model.onnx', 'frozen world model: ONNX (opset 17), weights as initializers; inputs tokens [B,T] int64, lengths [B] int64; output score [B]'),
      describeFile(ctx.outDir, 'tokenizer.json', 'byte-level BPE tokenizer shared by both models (wmrl-bpe JSON)'),
    ];
    writeManifest(ctx.outDir, files, {
      config,
      configName: ctx.settings.configName,
      tokenizer: { vocabSize: tokenizer.vocabSize },
      seed: ctx.settings.seed,
      training: ctx.settings,
      figures,
    });
  }
  return figures;
}
