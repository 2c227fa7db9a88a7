// The paper's reported numbers (method.md section 5), reproduced verbatim for the companion's last
// section. These are the PAPER's results, not this project's; nothing here is measured by us.

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
