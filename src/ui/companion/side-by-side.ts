// Section 6's one table: each of our measured rows beside the paper's row it reproduces, then the
// paper's rows we have no counterpart for. Only pairs rows up; every number comes from the committed
// summary (ours) or paper-results.ts (theirs).
import { ourRows, type ExperimentSummary, type OurRow } from './our-results.ts';
import { PAPER_COUNTERPART, paperOnlyRows, type PaperRow } from './paper-results.ts';

export interface SideBySideRow {
  /** what the row is, in words */
  label: string;
  ours: OurRow | null;
  paper: PaperRow | null;
}

const PRESET_LABELS: Readonly<Record<string, string>> = {
  sft: 'SFT policy (no RL)',
  'sft-larger': 'larger SFT policy (no RL, claim 4)',
  'grpo-all-real': 'all-real GRPO',
  'world-model-only': 'world model only',
  wmrl: 'WMRL',
  'wmrl-static': 'WMRL + free verifier (ours)',
  'paper-grpo-all-real': "all-real GRPO (authors' rules)",
  'paper-world-model-only': "world model only (authors' rules)",
  'paper-wmrl': "WMRL (authors' rules)",
};

export const presetLabel = (preset: string): string => PRESET_LABELS[preset] ?? preset;

export function sideBySide(summary: ExperimentSummary): SideBySideRow[] {
  const ours = ourRows(summary).map((row) => ({ label: presetLabel(row.preset), ours: row, paper: PAPER_COUNTERPART[row.preset] ?? null }));
  const theirs = paperOnlyRows().map((paper) => ({ label: paper.method, ours: null, paper }));
  return [...ours, ...theirs];
}

export interface RunScale {
  steps: number | null;
  /** groups a step (B) and programs a group (n) */
  groups: number | null;
  perGroup: number | null;
  /** held-out avg@k */
  evalK: number | null;
  /** every seed any row ran, ascending */
  seeds: number[];
}

/** The scale a summary ran at: the flags of its command (null where the command left the default), its seeds. */
export function runScale(summary: ExperimentSummary): RunScale {
  const flag = (name: string): number | null => {
    const m = summary.command.match(new RegExp(`--${name}[ =](\\d+)`));
    return m ? Number(m[1]) : null;
  };
  const seeds = [...new Set(summary.presets.flatMap((p) => p.seeds))].sort((a, b) => a - b);
  return { steps: flag('steps'), groups: flag('B'), perGroup: flag('n'), evalK: flag('eval-k'), seeds };
}
