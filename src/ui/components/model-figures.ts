// The figures the Overview prints about the committed models, formatted once from
// public/models/manifest.json (what the models pipeline measured). The README quotes the same
// strings; tests/unit/ui/readme-figures.test.ts reads both, so neither can drift from the data.

/** public/models/manifest.json, the parts the Overview reads. */
export interface ModelsManifest {
  configName?: string;
  config: { dModel: number; nLayers: number; nHeads: number; contextLength: number; vocabSize: number };
  files: { name: string; bytes: number }[];
  figures?: ManifestFigures;
}

export interface ManifestFigures {
  machine?: string;
  sft?: { steps: number; seconds: number; finalLoss: number; tokensPerSecond: number };
  samples?: {
    temperatures: number[];
    perTask: number;
    heldoutPerTask: number;
    heldoutTemperature: number;
    heldout?: SampleFigures;
    train?: Record<string, SampleFigures>;
    mutants?: { programs: number; stillRun: number };
  };
  /** The world model's training data: `samples` counts distinct programs over all temperatures. */
  wmData?: { examples: number; reference: number; samples: number; failedSamples: number; mutants: number; tasks: number };
  wm?: { heldout?: WmReport | null };
  export?: { policyParameters: number };
}

export interface SampleFigures {
  programs: number;
  /** tasks the programs were graded on */
  tasksWithLeaderboard?: number;
  /** distinct programs at this temperature (the same text may recur at another one) */
  unique: number;
  validRunRate: number | null;
  wrongTaskTypeRate: number | null;
  avgAtK: number | null;
}

/** src/pipeline/wm-report.ts WmReport (the fields shown here) */
export interface WmReport {
  programs: number;
  valid: number;
  failed: number;
  tasks: number;
  aucValidVsFailed: number;
  spearman: number;
  spearmanWithinTask: number;
  pairwiseValid: { accuracy: number; pairs: number };
}

/** 2,244 */
export const count = (n: number): string => n.toLocaleString('en-US');
/** 0.993 -> 99% */
export const percent = (v: number | null | undefined): string => (v === undefined || v === null ? '–' : `${(v * 100).toFixed(0)}%`);
/** two decimals, '–' when missing */
export const twoDigits = (v: number | null | undefined): string => (v === undefined || v === null || !Number.isFinite(v) ? '–' : v.toFixed(2));

export interface PolicyFigures {
  /** held-out task cards, '9' */
  tasks: string;
  perTask: number;
  temperature: number;
  /** share of held-out programs that run, '99%' */
  run: string;
  /** share of the wrong task type, 'none' when no program is */
  wrongType: string;
  /** held-out avg@k as a fraction, '0.446' */
  avgAtK: string;
}

export function policyFigures(f: ManifestFigures): PolicyFigures | null {
  const s = f.samples;
  if (!s?.heldout) return null;
  const h = s.heldout;
  return {
    tasks: h.tasksWithLeaderboard === undefined ? '–' : count(h.tasksWithLeaderboard),
    perTask: s.heldoutPerTask,
    temperature: s.heldoutTemperature,
    run: percent(h.validRunRate),
    wrongType: h.wrongTaskTypeRate === 0 ? 'none' : percent(h.wrongTaskTypeRate),
    avgAtK: h.avgAtK === null ? '–' : h.avgAtK.toFixed(3),
  };
}

export interface WorldModelFigures {
  programs: string;
  valid: string;
  failed: string;
  tasks: string;
  auc: string;
  spearman: string;
  spearmanWithinTask: string;
  pairwise: string;
  pairs: string;
  /** distinct executed policy programs it was trained on (over all temperatures), '2,244' */
  trainPrograms: string | null;
  /** programs broken on purpose among its training data, '1,088' */
  mutants: string | null;
}

export function worldModelFigures(f: ManifestFigures): WorldModelFigures | null {
  const r = f.wm?.heldout;
  if (!r) return null;
  return {
    programs: count(r.programs),
    valid: count(r.valid),
    failed: count(r.failed),
    tasks: count(r.tasks),
    auc: twoDigits(r.aucValidVsFailed),
    spearman: twoDigits(r.spearman),
    spearmanWithinTask: twoDigits(r.spearmanWithinTask),
    pairwise: percent(r.pairwiseValid.accuracy),
    pairs: count(r.pairwiseValid.pairs),
    // Not the sum of each temperature's distinct programs: one text sampled at two temperatures
    // counts once in the world model's data.
    trainPrograms: f.wmData ? count(f.wmData.samples) : null,
    mutants: f.wmData ? count(f.wmData.mutants) : f.samples?.mutants ? count(f.samples.mutants.programs) : null,
  };
}
