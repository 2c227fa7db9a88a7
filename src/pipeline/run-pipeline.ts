// The models pipeline, stage by stage: corpus -> tokenizer -> SFT policy -> executed samples ->
// world-model data -> world model (leave-tasks-out validation, then the final fit) -> export.
// Each stage writes its product to a work folder, so a later stage can be rerun alone (--stage).
// Everything is seeded; no stage stops on wall-clock time.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cpus } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import type { ConfigName, ModelConfig } from '../model/config.ts';
import { namedConfig } from '../model/config.ts';
import { loadCheckpoint, saveCheckpoint } from '../model/checkpoint.ts';
import type { WorldModelLossKind } from '../model/losses.ts';
import type { Model } from '../model/init.ts';
import { exportWorldModel } from '../model/onnx/export.ts';
import { Tokenizer } from '../model/tokenizer.ts';
import { trainTokenizer } from '../model/tokenizer-training.ts';
import type { TaskRegistry } from '../tasks/task-registry.ts';
import type { CorpusEntry, CorpusTask } from './corpus.ts';
import { buildCorpus, corpusTexts, trainingTasks } from './corpus.ts';
import type { GradedRun, RunJobs } from './graded-runs.ts';
import { runAndGrade } from './graded-runs.ts';
import { describeFile, sha256Hex, writeManifest } from './manifest.ts';
import type { SampledProgram } from './policy-samples.ts';
import { samplePrograms } from './policy-samples.ts';
import { executeWithStore, OutcomeStore } from './outcome-store.ts';
import { sampleSummary } from './sample-summary.ts';
import { toExecutedSample, writeExecutedSamples } from './executed-samples.ts';
import { reportMarkdown, worldModelReport, type WmReport } from './wm-report.ts';
import { deriveSeed, mulberry32 } from '../primitives/random.ts';
import { hashString } from '../primitives/random.ts';
import { MUTATION_KINDS, mutantsOf, spliceMutantsOf, syntaxMutantsOf, wrongTypeMutantsOf, type MutantKind } from './program-mutants.ts';
import { trainSft } from './sft.ts';
import type { SftResult } from './sft.ts';
import type { WmExample } from './wm-data.ts';
import { referenceExamples, worldModelTasks } from './wm-data.ts';
import type { WmTrainOptions, WmValidation } from './world-model.ts';
import { chooseHeldOutTasks, predictWithExport, trainWorldModel, validateLeaveTasksOut } from './world-model.ts';
import { meanOf } from '../primitives/mean.ts';

export const STAGES = ['corpus', 'tokenizer', 'sft', 'samples', 'wm-data', 'wm', 'export'] as const;
export type Stage = (typeof STAGES)[number];

export interface PipelineSettings {
  seed: number;
  configName: ConfigName;
  contextLength: number;
  vocabSize: number;
  composedPerTask: number;
  /** corpus: balance composed programs across task types; share paired with a synthetic card (corpus.ts) */
  balanceTypes?: boolean;
  syntheticCardShare?: number;
  sft: { steps: number; batchSize: number; peakLr: number; warmup: number; weightDecay: number; maxGradNorm: number };
  /**
   * perTask programs per training card at each temperature; heldoutPerTask per held-out card at each
   * of heldoutTemperatures (the policy's figures are at heldoutTemperature, the trainer's; the world
   * model is validated on all of them, since programs that fail are rare at the lower one)
   */
  samples: { perTask: number; temperatures: number[]; heldoutPerTask: number; heldoutTemperature: number; heldoutTemperatures: number[]; mutantsPerTask: number; wrongTypePerTask: number; syntaxPerTask: number; splicePerTask: number; composedPerTask: number; topK: number; timeoutMs: number; poolSize: number; execute: boolean };
  /** epochs, when set, fixes the step count from the number of examples (steps is then ignored) */
  wm: { steps: number; epochs?: number; loss: WorldModelLossKind; pairWeight?: number; rowsPerTask?: number; target?: 'task-centred'; batchSize: number; peakLr: number; warmup: number; weightDecay: number; maxGradNorm: number; holdOutTasks: number };
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
    composedPerTask: 100,
    balanceTypes: true,
    syntheticCardShare: 0.5,
    sft: { steps: 800, batchSize: 16, peakLr: 2e-3, warmup: 20, weightDecay: 0.01, maxGradNorm: 1 },
    // ~3,000 executed training-card programs; 20 s is the trainer's sandbox budget (src/app/ports-browser.ts).
    samples: { perTask: 40, temperatures: [0.4, 0.6, 0.8, 1.0, 1.2], heldoutPerTask: 16, heldoutTemperature: 0.6, heldoutTemperatures: [0.6, 1.0], mutantsPerTask: 40, wrongTypePerTask: 12, syntaxPerTask: 16, splicePerTask: 0, composedPerTask: 0, topK: 0, timeoutMs: 20_000, poolSize: 2, execute: true },
    wm: { steps: 60, epochs: 3, loss: 'mse', batchSize: 16, peakLr: 5e-4, warmup: 30, weightDecay: 0.01, maxGradNorm: 1, holdOutTasks: 3 },
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
    samples: { perTask: 1, temperatures: [1], heldoutPerTask: 1, heldoutTemperature: 1, heldoutTemperatures: [1], mutantsPerTask: 1, wrongTypePerTask: 1, syntaxPerTask: 1, splicePerTask: 1, composedPerTask: 1, topK: 0, timeoutMs: 10_000, poolSize: 1, execute: false },
    wm: { steps: 3, loss: 'mse', batchSize: 8, peakLr: 1e-2, warmup: 1, weightDecay: 0.01, maxGradNorm: 1, holdOutTasks: 1 },
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
  /**
   * The wm stage stops after its leave-tasks-out validation and writes it to
   * wm-validation-<tag>.json: for comparing world-model settings without fitting the final model
   * or looking at the held-out tasks.
   */
  validateOnly?: string;
}

interface SampleRecord extends SampledProgram {
  split: string;
  temperature: number;
  run?: GradedRun;
}

interface MutantRecord {
  taskId: string;
  card: string;
  kind: MutantKind;
  program: string;
  run?: GradedRun;
}

/** A composed corpus program run on its task (--composed-per-task). */
type ComposedRecord = Omit<MutantRecord, 'kind'>;

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

/**
 * What a stage reads is not there or not usable: a file an earlier stage writes into the work folder
 * (that stage never ran there), or the models folder named by --world-model-from. The user's input, so
 * the CLI prints one line.
 */
export class BuildInputError extends Error {}

const WRITTEN_BY = { 'corpus.json': 'corpus', 'tokenizer.json': 'tokenizer', 'sft.ckpt': 'sft', 'wm-data.json': 'wm-data', 'wm.ckpt': 'wm' } as const satisfies Record<string, Stage>;

/** The path of an earlier stage's output in the work folder, which must be there. */
function workFile(ctx: PipelineContext, name: keyof typeof WRITTEN_BY): string {
  const path = join(ctx.workDir, name);
  if (!existsSync(path)) {
    const by = WRITTEN_BY[name];
    throw new BuildInputError(`${path} is missing: stage ${by} writes it, so run the stages from ${by} on (--stage ${by}..TO) or give --work the folder of a build that ran it`);
  }
  return path;
}

function loadTokenizer(ctx: PipelineContext): Tokenizer {
  return Tokenizer.fromJSON(readJson(workFile(ctx, 'tokenizer.json')));
}

/** A checkpoint from disk. Copied into a plain Uint8Array: a Node Buffer's slice() is a view into a shared pool, which loadCheckpoint's weight copy would pick up. */
function readCheckpoint(path: string): ReturnType<typeof loadCheckpoint> {
  return loadCheckpoint(new Uint8Array(readFileSync(path)));
}

function loadModel(path: string): Model {
  return readCheckpoint(path).model;
}

/** One record per distinct (task, program), first occurrence kept. */
function uniquePrograms<T extends { taskId: string; program: string }>(rs: readonly T[]): T[] {
  const seen = new Set<string>();
  return rs.filter((r) => {
    const k = `${r.taskId}\u0000${r.program}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const STAGE_RUNNERS: Record<Stage, (ctx: PipelineContext, figures: Figures) => Promise<void>> = {
  async corpus(ctx, figures) {
    const corpus = buildCorpus(await allTasks(ctx), {
      seed: ctx.settings.seed,
      composedPerTask: ctx.settings.composedPerTask,
      balanceTypes: ctx.settings.balanceTypes,
      syntheticCardShare: ctx.settings.syntheticCardShare,
    });
    writeJson(join(ctx.workDir, 'corpus.json'), corpus);
    const taskType = new Map((await allTasks(ctx)).map((t) => [t.id, t.type]));
    figures.corpus = {
      entries: corpus.length,
      tasks: new Set(corpus.map((e) => e.taskId)).size,
      reference: corpus.filter((e) => e.origin === 'reference').length,
      composed: corpus.filter((e) => e.origin === 'composed').length,
      syntheticCards: corpus.filter((e) => e.syntheticCard).length,
      byType: Object.fromEntries(['regression', 'binary', 'multiclass'].map((ty) => [ty, corpus.filter((e) => taskType.get(e.taskId) === ty).length])),
      chars: corpus.reduce((a, e) => a + e.card.length + e.source.length, 0),
    };
    ctx.log(`corpus: ${JSON.stringify(figures.corpus)}`);
  },

  async tokenizer(ctx, figures) {
    const corpus = readJson<CorpusEntry[]>(workFile(ctx, 'corpus.json'));
    const tokenizer = trainTokenizer(corpusTexts(corpus), { vocabSize: ctx.settings.vocabSize });
    writeJson(join(ctx.workDir, 'tokenizer.json'), tokenizer.toJSON());
    const lengths = corpus.map((e) => tokenizer.encodeSequence(e.card, e.source).tokens.length).sort((a, b) => a - b);
    const q = (p: number): number => lengths[Math.floor(p * (lengths.length - 1))];
    figures.tokenizer = { vocabSize: tokenizer.vocabSize, requested: ctx.settings.vocabSize, sequenceTokens: { mean: meanOf(lengths), p50: q(0.5), p90: q(0.9), p99: q(0.99), max: q(1) }, contextLength: ctx.settings.contextLength };
    ctx.log(`tokenizer: ${JSON.stringify(figures.tokenizer)}`);
  },

  async sft(ctx, figures) {
    const corpus = readJson<CorpusEntry[]>(workFile(ctx, 'corpus.json'));
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
    const model = loadModel(workFile(ctx, 'sft.ckpt'));
    const tasks = (await allTasks(ctx)).filter((t) => t.role === 'scored');
    const s = ctx.settings.samples;
    // Training cards at several temperatures, so the world model sees failures of every kind;
    // held-out cards at the evaluation temperature only (they never train the world model).
    const groups = [
      ...s.temperatures.map((temperature) => ({ split: 'train', temperature, perTask: s.perTask })),
      ...s.heldoutTemperatures.map((temperature) => ({ split: 'heldout', temperature, perTask: s.heldoutPerTask })),
    ];
    let sampleSeconds = 0;
    const records: SampleRecord[] = [];
    for (const g of groups) {
      // One file per group: an interrupted stage samples only the groups it has not written.
      const path = join(ctx.workDir, `samples-${g.split}-t${g.temperature}-k${g.perTask}.json`);
      let got: SampleRecord[];
      if (existsSync(path)) got = readJson<SampleRecord[]>(path);
      else {
        const t0 = performance.now();
        const mine = tasks.filter((t) => t.split === g.split);
        const sampled = await samplePrograms(model, tokenizer, mine, { seed: deriveSeed(ctx.settings.seed + 7, Math.round(g.temperature * 100)), perTask: g.perTask, temperature: g.temperature, topK: s.topK, threads: ctx.settings.threads });
        got = sampled.map((p) => ({ ...p, split: g.split, temperature: g.temperature }));
        writeJson(path, got);
        sampleSeconds += (performance.now() - t0) / 1000;
        ctx.log(`samples: ${got.length} programs on ${g.split} cards at T ${g.temperature} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      }
      records.push(...got);
    }
    // Programs broken on purpose (one edit each) from the training tasks' corpus programs, run like samples.
    const corpus = readJson<CorpusEntry[]>(workFile(ctx, 'corpus.json'));
    const mutants: MutantRecord[] = tasks
      .filter((t) => t.split === 'train')
      .flatMap((t) => {
        const sources = corpus.filter((e) => e.taskId === t.id).map((e) => e.source);
        return [
          ...mutantsOf(sources, s.mutantsPerTask, mulberry32(deriveSeed(ctx.settings.seed, hashString(t.id), 11))),
          ...wrongTypeMutantsOf(sources, t.type, s.wrongTypePerTask, mulberry32(deriveSeed(ctx.settings.seed, hashString(t.id), 12))),
          ...syntaxMutantsOf(sources, s.syntaxPerTask, mulberry32(deriveSeed(ctx.settings.seed, hashString(t.id), 13))),
          ...spliceMutantsOf(sources, s.splicePerTask, mulberry32(deriveSeed(ctx.settings.seed, hashString(t.id), 14))),
        ].map((m) => ({ taskId: t.id, card: t.card, kind: m.kind, program: m.source }));
      });
    // The corpus's composed programs themselves, run on their task (opt-in, --composed-per-task K):
    // working programs of many configurations, so the world model sees how configurations rank
    // inside a task, not only what the policy's own modes score. The first K distinct per task, in
    // corpus order (seeded), whatever card the corpus paired them with.
    const composed: ComposedRecord[] = tasks
      .filter((t) => t.split === 'train')
      .flatMap((t) =>
        [...new Set(corpus.filter((e) => e.taskId === t.id && e.origin === 'composed').map((e) => e.source))]
          .slice(0, s.composedPerTask)
          .map((program) => ({ taskId: t.id, card: t.card, program })),
      );
    let runSeconds = 0;
    let executedNow = 0;
    if (s.execute) {
      if (!ctx.openSandbox) throw new Error('samples: executing sampled programs needs the browser sandbox');
      const t1 = performance.now();
      const store = new OutcomeStore(join(ctx.workDir, 'outcomes.jsonl'));
      const before = store.size;
      // Held-out first: they are few and decide the policy's figures.
      const order = [...records.keys()].sort((a, b) => Number(records[b].split === 'heldout') - Number(records[a].split === 'heldout'));
      const sandbox = await ctx.openSandbox(s.poolSize);
      try {
        const programs = [...order.map((i) => ({ taskId: records[i].taskId, program: records[i].program })), ...mutants, ...composed];
        const runs = await executeWithStore(store, programs, s.timeoutMs, (chunk) => runAndGrade(ctx.registry, chunk, sandbox.runMany, s.timeoutMs), {
          chunk: 32,
          log: (done, total) => ctx.log(`samples: executed ${done}/${total} new programs (${((performance.now() - t1) / 1000).toFixed(0)} s)`),
        });
        runs.forEach((run, j) => {
          // a run that gave no verdict (unscored: the sandbox's backstop) stays unexecuted: no target to train on
          if (run.status === 'unscored') return;
          if (j < order.length) records[order[j]].run = run;
          else if (j < order.length + mutants.length) mutants[j - order.length].run = run;
          else composed[j - order.length - mutants.length].run = run;
        });
      } finally {
        await sandbox.close();
      }
      executedNow = store.size - before;
      runSeconds = (performance.now() - t1) / 1000;
    }
    writeJson(join(ctx.workDir, 'samples.json'), records);
    writeJson(join(ctx.workDir, 'mutants.json'), mutants);
    writeJson(join(ctx.workDir, 'composed.json'), composed);
    const mutantRuns = mutants.filter((m) => m.run);
    figures.samples = {
      temperatures: s.temperatures,
      perTask: s.perTask,
      heldoutPerTask: s.heldoutPerTask,
      heldoutTemperature: s.heldoutTemperature,
      timeoutMs: s.timeoutMs,
      sampleSeconds,
      runSeconds,
      executedNow,
      executed: s.execute,
      train: Object.fromEntries(s.temperatures.map((t) => [`t${t}`, sampleSummary(records.filter((r) => r.split === 'train' && r.temperature === t))])),
      heldout: sampleSummary(records.filter((r) => r.split === 'heldout' && r.temperature === s.heldoutTemperature)),
      heldoutByTemperature: Object.fromEntries(s.heldoutTemperatures.map((t) => [`t${t}`, sampleSummary(records.filter((r) => r.split === 'heldout' && r.temperature === t))])),
      mutants: {
        programs: mutants.length,
        executed: mutantRuns.length,
        stillRun: mutantRuns.filter((m) => m.run!.status === 'ok').length,
        byKind: Object.fromEntries([...MUTATION_KINDS, 'wrong-type' as const, 'syntax' as const, 'splice' as const].map((k) => [k, { n: mutants.filter((m) => m.kind === k).length, stillRun: mutantRuns.filter((m) => m.kind === k && m.run!.status === 'ok').length }])),
      },
      composed: { programs: composed.length, executed: composed.filter((c) => c.run).length, ran: composed.filter((c) => c.run?.status === 'ok').length },
    };
    ctx.log(`samples: ${JSON.stringify(figures.samples)}`);
  },

  async 'wm-data'(ctx, figures) {
    const tasks = worldModelTasks(await allTasks(ctx));
    const examples: WmExample[] = [];
    for (const t of tasks) examples.push(...referenceExamples(t, await ctx.registry.loadLeaderboard(t.id)));
    const samplesPath = join(ctx.workDir, 'samples.json');
    const trainIds = new Set(tasks.map((t) => t.id));
    let fromSamples = 0;
    let failedSamples = 0;
    const seen = new Set<string>();
    if (existsSync(samplesPath)) {
      for (const r of readJson<SampleRecord[]>(samplesPath)) {
        // only executed samples of training tasks with a true score (held-out tasks never train the world model);
        // one example per distinct (task, program): repeats at low temperature are one experiment
        if (!r.run || !trainIds.has(r.taskId) || r.split !== 'train' || r.run.y === null || Number.isNaN(r.run.y)) continue;
        const key = `${r.taskId}\u0000${r.program}`;
        if (seen.has(key)) continue;
        seen.add(key);
        examples.push({ taskId: r.taskId, card: r.card, program: r.program, y: r.run.y, origin: 'sample', valid: r.run.status === 'ok' });
        fromSamples++;
        if (r.run.status !== 'ok') failedSamples++;
      }
    }
    const mutantsPath = join(ctx.workDir, 'mutants.json');
    let fromMutants = 0;
    if (existsSync(mutantsPath)) {
      for (const m of readJson<MutantRecord[]>(mutantsPath)) {
        if (!m.run || !trainIds.has(m.taskId) || Number.isNaN(m.run.y) || m.run.y === null || seen.has(`${m.taskId}\u0000${m.program}`)) continue;
        examples.push({ taskId: m.taskId, card: m.card, program: m.program, y: m.run.y, origin: 'mutant', valid: m.run.status === 'ok' });
        fromMutants++;
      }
    }
    // Composed corpus programs run on their task (--composed-per-task); none in a default build.
    const composedPath = join(ctx.workDir, 'composed.json');
    const references = new Set(examples.filter((e) => e.origin === 'reference').map((e) => `${e.taskId}\u0000${e.program}`));
    let fromComposed = 0;
    if (existsSync(composedPath)) {
      for (const c of readJson<ComposedRecord[]>(composedPath)) {
        const key = `${c.taskId}\u0000${c.program}`;
        if (!c.run || !trainIds.has(c.taskId) || c.run.y === null || Number.isNaN(c.run.y) || seen.has(key) || references.has(key)) continue;
        seen.add(key);
        examples.push({ taskId: c.taskId, card: c.card, program: c.program, y: c.run.y, origin: 'composed', valid: c.run.status === 'ok' });
        fromComposed++;
      }
    }
    writeJson(join(ctx.workDir, 'wm-data.json'), examples);
    figures.wmData = { examples: examples.length, reference: examples.length - fromSamples - fromMutants - fromComposed, samples: fromSamples, failedSamples, mutants: fromMutants, composed: fromComposed, tasks: tasks.length, meanY: meanOf(examples.map((e) => e.y)) };
    ctx.log(`wm-data: ${JSON.stringify(figures.wmData)}`);
  },

  async wm(ctx, figures) {
    const tokenizer = loadTokenizer(ctx);
    const init = loadModel(workFile(ctx, 'sft.ckpt'));
    const data = readFileSync(workFile(ctx, 'wm-data.json'));
    const examples = JSON.parse(data.toString('utf8')) as WmExample[];
    const w = ctx.settings.wm;
    const stepsFor = (n: number): number => (w.epochs ? Math.ceil((w.epochs * n) / w.batchSize) : w.steps);
    const opts: WmTrainOptions = { seed: ctx.settings.seed, threads: ctx.settings.threads, log: ctx.log, ...w, steps: stepsFor(examples.length) };
    // Leave-tasks-out on training tasks: a model trained without some tasks scores those tasks'
    // policy samples (the population it serves), for choosing settings without touching held-out tasks.
    const heldOut = chooseHeldOutTasks(examples, ctx.settings.wm.holdOutTasks, ctx.settings.seed);
    ctx.log(`wm: leave-tasks-out validation, holding out ${heldOut.join(', ')}`);
    // The validation is seeded: any stored one (a --validate-only comparison, or an earlier full
    // stage) of the same settings, seed and data is the same run, so its file stands in for it.
    const key = { settings: w, seed: ctx.settings.seed, data: sha256Hex(data) };
    const stored = readdirSync(ctx.workDir)
      .filter((f) => /^wm-validation-.+\.json$/.test(f))
      .map((f) => readJson<typeof key & { validation: WmValidation }>(join(ctx.workDir, f)))
      .find((v) => isDeepStrictEqual({ settings: v.settings, seed: v.seed, data: v.data }, key));
    const validation: WmValidation = stored?.validation ?? await validateLeaveTasksOut(init, tokenizer, examples, heldOut, { ...opts, steps: stepsFor(examples.filter((e) => !heldOut.includes(e.taskId)).length) });
    ctx.log(`wm validation${stored ? ' (stored)' : ''}: ${JSON.stringify(validation)}`);
    writeJson(join(ctx.workDir, `wm-validation-${ctx.validateOnly ?? 'final'}.json`), { ...key, validation });
    if (ctx.validateOnly) return;
    const final = await trainWorldModel(init, tokenizer, examples, opts);
    writeFileSync(join(ctx.workDir, 'wm.ckpt'), new Uint8Array(saveCheckpoint(final.model, tokenizer, { stage: 'wm', seed: ctx.settings.seed, steps: opts.steps })));
    const tail = final.curve.slice(-10);
    // The figure that matters: executed policy samples of the held-out tasks, never trained on.
    const samplesPath = join(ctx.workDir, 'samples.json');
    const heldoutSamples = existsSync(samplesPath) ? uniquePrograms(readJson<SampleRecord[]>(samplesPath).filter((r) => r.split === 'heldout' && r.run && !Number.isNaN(r.run.y))) : [];
    let heldout: WmReport | null = null;
    const heldoutByTemperature: Record<string, WmReport> = {};
    if (heldoutSamples.length > 0) {
      const pred = await predictWithExport(final.model, tokenizer, heldoutSamples, ctx.settings.threads);
      const scored = heldoutSamples.map((r, i) => ({ temperature: r.temperature, item: { taskId: r.taskId, valid: r.run!.status === 'ok', y: r.run!.y, predicted: pred[i] } }));
      heldout = worldModelReport(scored.map((x) => x.item));
      for (const t of ctx.settings.samples.heldoutTemperatures) heldoutByTemperature[`t${t}`] = worldModelReport(scored.filter((x) => x.temperature === t).map((x) => x.item));
      ctx.log(`wm on held-out policy samples:\n${reportMarkdown('held-out samples', heldout)}`);
    }
    figures.wm = { validation, heldout, heldoutByTemperature, final: { steps: opts.steps, seconds: final.seconds, examples: examples.length, truncated: final.truncated, firstLoss: final.curve[0]?.loss, finalLoss: meanOf(tail.map((p) => p.loss)) } };
  },

  async export(ctx, figures) {
    const tokenizer = loadTokenizer(ctx);
    const policy = readCheckpoint(workFile(ctx, 'sft.ckpt'));
    const tokenizerJson = JSON.stringify(tokenizer.toJSON());
    let worldModelOnnx: Uint8Array;
    let worldModelParameters: number | string;
    const fromDir = ctx.worldModelFrom;
    if (fromDir) {
      const from = relative(ctx.root, fromDir) || '.';
      const fromFile = (f: string): string => {
        const path = join(fromDir, f);
        if (!existsSync(path)) throw new BuildInputError(`export: --world-model-from ${from} holds no ${f} (give the models folder of an earlier build)`);
        return path;
      };
      const theirs = JSON.stringify(readJson<unknown>(fromFile('tokenizer.json')));
      if (theirs !== tokenizerJson) throw new BuildInputError(`export: ${from} has another tokenizer; its world model cannot read this build's tokens`);
      worldModelOnnx = new Uint8Array(readFileSync(fromFile('world-model.onnx')));
      worldModelParameters = `from ${from}`;
    } else {
      const wm = loadModel(workFile(ctx, 'wm.ckpt'));
      worldModelOnnx = exportWorldModel(wm, 'initializers');
      worldModelParameters = wm.layout.numParameters;
    }
    rmSync(ctx.outDir, { recursive: true, force: true });
    mkdirSync(ctx.outDir, { recursive: true });
    writeFileSync(join(ctx.outDir, 'policy.ckpt'), new Uint8Array(saveCheckpoint(policy.model, tokenizer, { ...policy.meta, settings: ctx.settings })));
    writeFileSync(join(ctx.outDir, 'world-model.onnx'), worldModelOnnx);
    writeJson(join(ctx.outDir, 'tokenizer.json'), tokenizer.toJSON());
    // The world model's validation population travels with the models (npm run wm-eval reads it).
    const samplesPath = join(ctx.workDir, 'samples.json');
    if (existsSync(samplesPath)) {
      const heldout = readJson<SampleRecord[]>(samplesPath).filter((r) => r.split === 'heldout' && r.run);
      if (heldout.length > 0) writeExecutedSamples(join(ctx.outDir, 'heldout-samples.jsonl'), heldout.map(toExecutedSample));
    }
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
      ...(existsSync(join(ctx.outDir, 'heldout-samples.jsonl'))
        ? [describeFile(ctx.outDir, 'heldout-samples.jsonl', "the SFT policy's executed programs on held-out cards (JSON lines): the world model's validation population, never trained on")]
        : []),
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
