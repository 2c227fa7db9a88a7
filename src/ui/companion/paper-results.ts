// The paper's reported numbers (docs/method.md, "The paper's numbers"), reproduced verbatim for the companion's last
// section, and which of our presets each one is reproduced by. These are the PAPER's results, not
// this project's; nothing here is measured by us.

export interface PaperRow {
  method: string;
  gpuHours: number | null;
  mle: number;
  dsbench: number;
}

export const PAPER_MAIN_TABLE: readonly PaperRow[] = [
  { method: '4B GRPO (all real execution)', gpuHours: 883, mle: 15.2, dsbench: 25.7 },
  { method: '4B world model only', gpuHours: 269, mle: 12.9, dsbench: 23.1 },
  { method: '4B WMRL', gpuHours: 286, mle: 16.4, dsbench: 28.8 },
  { method: '9B GRPO', gpuHours: 1174, mle: 18.8, dsbench: 31.2 },
  { method: '9B WMRL', gpuHours: 349, mle: 21.6, dsbench: 32.8 },
  { method: '48B open-weight agent (no RL)', gpuHours: null, mle: 8.1, dsbench: 17.3 },
  { method: '120B open-weight agent (no RL)', gpuHours: null, mle: 20.5, dsbench: 31.7 },
];

export interface PaperAblation {
  variant: string;
  mle4b: number;
  ds4b: number;
  mle9b: number;
  ds9b: number;
}

export const PAPER_ABLATIONS: readonly PaperAblation[] = [
  { variant: 'neither', mle4b: 13.5, ds4b: 25.3, mle9b: 16.8, ds9b: 29.5 },
  { variant: 'denoise only', mle4b: 14.9, ds4b: 26.2, mle9b: 18.0, ds9b: 31.2 },
  { variant: 'debias only', mle4b: 15.7, ds4b: 28.1, mle9b: 19.4, ds9b: 31.7 },
  { variant: 'both (WMRL)', mle4b: 16.4, ds4b: 28.8, mle9b: 21.6, ds9b: 32.8 },
];

/** Where the paper and the authors' code live, for the links the page gives where it names them. */
export const PAPER_URL = 'https://arxiv.org/abs/2608.12564';
export const AUTHORS_CODE_URL = 'https://github.com/xiyuanyang45/WMRL';

const mainRow = (method: string): PaperRow => {
  const row = PAPER_MAIN_TABLE.find((r) => r.method === method);
  if (!row) throw new Error(`paper-results: no main-table row '${method}'`);
  return row;
};
// An ablation at 4B as a row of the paper's side (the paper gives no GPU-hours for it).
const ablation4b = (variant: string): PaperRow => {
  const a = PAPER_ABLATIONS.find((r) => r.variant === variant);
  if (!a) throw new Error(`paper-results: no ablation '${variant}'`);
  return { method: `4B ablation: ${variant}`, gpuHours: null, mle: a.mle4b, dsbench: a.ds4b };
};

/**
 * The paper's row that a preset of ours reproduces, at the paper's 4B scale; presets the paper has
 * no row for (the SFT start, our own variants) are absent. The ablations' "both" is 4B WMRL itself.
 */
export const PAPER_COUNTERPART: Readonly<Record<string, PaperRow>> = {
  'grpo-all-real': mainRow('4B GRPO (all real execution)'),
  'world-model-only': mainRow('4B world model only'),
  wmrl: mainRow('4B WMRL'),
  'ablation-neither': ablation4b('neither'),
  'ablation-denoise-only': ablation4b('denoise only'),
  'ablation-debias-only': ablation4b('debias only'),
  // the same rows, run on the authors' rules (their reference code's reward ladder, gate and anchor weight)
  'paper-grpo-all-real': mainRow('4B GRPO (all real execution)'),
  'paper-world-model-only': mainRow('4B world model only'),
  'paper-wmrl': mainRow('4B WMRL'),
  'paper-ablation-neither': ablation4b('neither'),
  'paper-ablation-denoise-only': ablation4b('denoise only'),
  'paper-ablation-debias-only': ablation4b('debias only'),
};

/** Main-table rows no preset of ours reproduces (the 9B runs, the large agents without RL). */
export function paperOnlyRows(): PaperRow[] {
  const matched = new Set(Object.values(PAPER_COUNTERPART).map((c) => c.method));
  return PAPER_MAIN_TABLE.filter((r) => !matched.has(r.method));
}
