// What one experiment run is and what it leaves behind: the request the CLI sends to the experiment
// page, and the result it writes as JSON (one file per preset x seed, plus one per seed for the SFT
// policy evaluated before any training: the "no RL" row). Plain data, structured-clone and JSON safe.
import type { EvaluationResult } from '../training/evaluate.ts';
import type { CostSheet } from '../training/cost.ts';
import type { GroupRecord, StepRecord, TrainerCheckpoint, TrainerConfig } from '../training/trainer.ts';
import type { RunProvenance } from './provenance.ts';
import type { PolicyInfo } from '../workers/policy-api.ts';
import type { WorldModelInfo } from '../workers/world-model-api.ts';
import type { WorkRule } from '../sandbox-pyodide/work-rule.ts';

/** 'train': a preset trained for config.steps, then evaluated; 'sft': the starting policy evaluated, no training. */
export type RunKind = 'train' | 'sft';

/** The preset name of the SFT (no RL) rows. */
export const SFT_PRESET = 'sft';

/** 'committed', 'tiny', or `folder:<path>`: another models folder (pipeline output), e.g. a larger SFT policy. */
export type ModelChoice = 'committed' | 'tiny' | `folder:${string}`;

/** Where the experiment runner places a `folder:` choice inside dist/ for the page to load. */
export const FOLDER_MODELS_PATH = 'experiment-models/';

/** The work rule a run's programs were judged under. */
export function ruleOfRequest(r: Pick<RunRequest, 'workRule'>): WorkRule {
  return r.workRule ?? 1;
}

export interface RunRequest {
  kind: RunKind;
  /** A preset id, or SFT_PRESET. */
  preset: string;
  seed: number;
  /** The trainer config (for 'sft' runs: the config whose sampling settings the evaluation uses). */
  config: TrainerConfig;
  /** k of held-out avg@k. */
  evalK: number;
  /** Held-out task ids to evaluate on; null: all held-out tasks. */
  evalTaskIds: string[] | null;
  /** 'committed': public/models; 'tiny': a random tiny model built on the page (plumbing checks only); 'folder:<path>': that models folder. */
  models: ModelChoice;
  /** Sandbox workers; null: the pool's default. */
  poolSize: number | null;
  executionTimeoutMs: number;
  /** How the sandbox counted work (src/sandbox-pyodide/work-rule.ts); absent in run files written before rule 2: rule 1. */
  workRule?: WorkRule;
  /** Keep the sampled program texts in the StepRecords (large). */
  keepPrograms: boolean;
  /**
   * Steps after which a 'train' run is also evaluated on the held-out tasks, before its last step
   * (its final evaluation is always made): the points of held-out score against training compute.
   * Absent or empty: only the final evaluation. Training is the same either way, since every draw of
   * a step derives from (seed, step), and evaluation is not charged to training.
   */
  evalAtSteps?: number[];
}

/** One held-out evaluation during a 'train' run: after `step` steps, with the training cost so far. */
export interface CurvePoint {
  step: number;
  /** cumulative training busy time after `step` steps, ms (evaluation excluded) */
  trainingBusyMs: number;
  avgAtK: number;
  evaluation: EvaluationResult;
}

export interface RunEnvironment {
  policy: PolicyInfo;
  worldModel: WorldModelInfo;
  poolSize: number;
  modelsLabel: string;
  userAgent: string;
  hardwareConcurrency: number;
  crossOriginIsolated: boolean;
}

/** A group record whose program texts may have been dropped; their lengths stay. */
export type TrimmedGroupRecord = Omit<GroupRecord, 'programs'> & { programs?: string[]; programChars: number[] };
export type TrimmedStepRecord = Omit<StepRecord, 'groups'> & { groups: TrimmedGroupRecord[] };

export interface RunResult {
  format: 'wmrl-experiment-run';
  version: 1;
  kind: RunKind;
  preset: string;
  seed: number;
  status: 'ok' | 'failed';
  /** The error message of a failed run. */
  error: string | null;
  request: RunRequest;
  environment: RunEnvironment | null;
  records: TrimmedStepRecord[];
  /** Held-out evaluation: after training ('train'), of the starting policy ('sft'). */
  evaluation: EvaluationResult | null;
  /** 'train' runs with request.evalAtSteps: the evaluations along the way, then the final one. */
  curve?: CurvePoint[];
  /** Cumulative training cost (the last StepRecord's); null for 'sft' runs. */
  training: CostSheet | null;
  /** Workers, models and pool start-up on the page, ms. */
  startupMs: number;
  /** The whole run on the page (start-up, training, evaluation), ms. */
  wallMs: number;
  startedAt: string;
  finishedAt: string;
  /**
   * The machine's load while the run went on, sampled by the runner (Node's os.loadavg, 1-minute
   * average, every 15 s): busy times are only comparable between runs under similar load, and the
   * compute accounting names what else ran. Absent in run files written before it was recorded.
   */
  host?: HostLoad;
  /**
   * The source commit (and whether its tree was dirty), the toolkit hash, and the runner's clock
   * around the run (page start-up included): added by the Node runner, which the page cannot know.
   * Absent in run files written before it was recorded.
   */
  provenance?: RunProvenance;
}

/**
 * A 'train' run between two steps, as the page hands it to the runner after every step (and after an
 * evaluation along the way), and takes back to go on from there: the trainer's checkpoint, what the run
 * file will hold of the steps done, and the time spent before. The runner keeps it beside the run file
 * (src/cli/experiment-unfinished-run.ts).
 */
export interface RunSoFar {
  checkpoint: TrainerCheckpoint;
  /** One per step done (records.length === checkpoint.step). */
  records: TrimmedStepRecord[];
  /** The evaluations along the way made so far (none after a step not yet evaluated). */
  curve: CurvePoint[];
  /** The first segment's start on the page. */
  startedAt: string;
  /** Start-up and wall time of the earlier segments and of this one up to now, ms. */
  startupMs: number;
  wallMs: number;
}

export interface HostLoad {
  cpus: number;
  samples: number;
  meanLoad1: number;
  maxLoad1: number;
}

/** What the page reports while a run goes on (the CLI prints it as a progress line). */
export interface RunProgress {
  phase: 'startup' | 'ready' | 'eval-before' | 'step' | 'saved' | 'eval-during' | 'eval-after' | 'done';
  preset: string;
  seed: number;
  /** For 'step': the step just finished (0-based) and the run's step count. */
  step?: number;
  steps?: number;
  meanReward?: number;
  executions?: number;
  stepWallMs?: number;
  /** Cumulative training busy time, ms. */
  busyMs?: number;
  /** Held-out avg@k after an evaluation. */
  avgAtK?: number;
  /** Free text (e.g. the backends chosen). */
  note?: string;
  /** For 'saved': what keeping the run so far took on the page. */
  save?: SaveTiming;
}

/** One save of a run so far, timed on the page: taking the checkpoint, writing its text, handing it to the runner (which writes the file before it answers). */
export interface SaveTiming {
  checkpointMs: number;
  textMs: number;
  handOverMs: number;
  chars: number;
}

/** Drops program texts (unless kept), keeping their lengths in characters. */
export function trimRecord(record: StepRecord, keepPrograms: boolean): TrimmedStepRecord {
  return {
    ...record,
    groups: record.groups.map((g) => {
      const { programs, ...rest } = g;
      const trimmed: TrimmedGroupRecord = { ...rest, programChars: programs.map((p) => p.length) };
      if (keepPrograms) trimmed.programs = programs;
      return trimmed;
    }),
  };
}

/** The file name of a run's result inside the runs folder. */
export function runFileName(preset: string, seed: number, failed = false): string {
  if (!/^[a-z0-9-]+$/.test(preset)) throw new RangeError(`run file: preset name ${JSON.stringify(preset)} is not a plain id`);
  if (!Number.isInteger(seed)) throw new RangeError(`run file: seed must be an integer, got ${seed}`);
  return `${preset}-seed${seed}${failed ? '.failed' : ''}.json`;
}

/** Checks the shape of a parsed result file enough to aggregate it safely. */
export function isRunResult(x: unknown): x is RunResult {
  if (typeof x !== 'object' || x === null) return false;
  const r = x as Partial<RunResult>;
  return r.format === 'wmrl-experiment-run' && r.version === 1 && (r.kind === 'train' || r.kind === 'sft') && typeof r.preset === 'string' && typeof r.seed === 'number' && (r.status === 'ok' || r.status === 'failed');
}
