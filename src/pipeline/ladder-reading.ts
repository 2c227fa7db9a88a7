// Reading a one-number score onto the authors' status ladder (status-ladder.ts), so that a world
// model with a scalar head (ours) and the baselines can be given the authors' fidelity figures:
// status accuracy at 1 and 2, and the error against the ladder reward. Fitted on training tasks'
// programs only, then applied unchanged to held-out ones.
//   - status: the scores are cut into `bins` quantile bins of the fitting programs; a bin predicts
//     its commonest status, and its second commonest as the second guess (the overall order fills
//     in where a bin saw fewer than two statuses).
//   - reward: isotonic regression of the ladder reward on the score (src/wmrl/isotonic.ts, the same
//     fit the method's debiasing uses), so a higher score never reads as a lower reward.
//   - quality: the authors' bucket (low, fair, mid, high: quarters of the leaderboard position) of
//     E[position | the program runs, score], an isotonic fit on the programs that ran; given only
//     when the first guess is 'valid'.
//   - gate (optional): as in the authors' code, a program that is blank or does not compile reads as
//     malformed / syntax error with reward 0 before the score is consulted; the bins and the isotonic
//     fit then see only the programs that pass the gate.
// This is the agreed head layout: the world model keeps one scalar head, and its status and quality
// are read from it (docs/models.md, "The world model's output on the authors' ladder"). A reading
// travels as JSON (ladderReadingJSON / parseLadderReading): wm-eval --write-reading writes the
// committed model's into public/models, and the Playground shows it beside the raw score.

import { fitIsotonic, knotCalibrator, type Calibrator } from '../wmrl/isotonic.ts';
import { LADDER_STATUSES, type LadderStatus } from './status-ladder.ts';

/** The authors' quality buckets, quarters of the leaderboard position, lowest first. */
export const QUALITY_BUCKETS = ['low', 'fair', 'mid', 'high'] as const;
export type QualityBucket = (typeof QUALITY_BUCKETS)[number];

/** The bucket of a leaderboard position in [0, 1] (quarters; 1 is 'high'). */
export function qualityBucket(position: number): QualityBucket {
  if (!(position >= 0 && position <= 1)) throw new RangeError(`quality bucket: a position must be in [0, 1], got ${position}`);
  return QUALITY_BUCKETS[Math.min(3, Math.floor(position * 4))];
}

export interface LadderRow {
  score: number;
  status: LadderStatus;
  /** the ladder reward the program really earned */
  reward: number;
  /** Python compiles the program */
  compiles: boolean;
  /** the program text is blank */
  blank: boolean;
}

export interface LadderGuess {
  /** the most likely status, then the second */
  statuses: [LadderStatus, LadderStatus];
  reward: number;
  /** the quality bucket when the first guess is 'valid' (else null) */
  quality: QualityBucket | null;
}

export interface LadderReading {
  read(score: number, program: { compiles: boolean; blank: boolean }): LadderGuess;
  /** lower edges of bins 1.. (bin 0 is everything below the first) */
  cuts: readonly number[];
  bins: readonly { n: number; statuses: [LadderStatus, LadderStatus] }[];
  gate: boolean;
  /** ladder reward by score (isotonic) */
  reward: Calibrator;
  /** leaderboard position by score, among programs that ran (isotonic) */
  position: Calibrator;
}

function rankStatuses(rows: readonly { status: LadderStatus }[], fallback: readonly LadderStatus[]): [LadderStatus, LadderStatus] {
  const count = new Map<LadderStatus, number>();
  for (const r of rows) count.set(r.status, (count.get(r.status) ?? 0) + 1);
  // Commonest first; ties and unseen statuses in the fallback order.
  const order = [...LADDER_STATUSES].sort((a, b) => (count.get(b) ?? 0) - (count.get(a) ?? 0) || fallback.indexOf(a) - fallback.indexOf(b));
  return [order[0], order[1]];
}

export function fitLadderReading(rows: readonly LadderRow[], options: { bins?: number; gate?: boolean } = {}): LadderReading {
  const nBins = options.bins ?? 10;
  const gate = options.gate ?? false;
  const fit = gate ? rows.filter((r) => r.compiles && !r.blank) : rows;
  if (fit.length === 0) throw new Error('ladder reading: no fitting programs' + (gate ? ' pass the compile gate' : ''));
  for (const r of fit) if (!Number.isFinite(r.score)) throw new RangeError(`ladder reading: a fitting score is not finite (${r.score})`);
  const sorted = fit.map((r) => r.score).sort((a, b) => a - b);
  // Order-statistic cuts, deduplicated and above the minimum, so that no bin is empty.
  const cuts = [...new Set(Array.from({ length: nBins - 1 }, (_, k) => sorted[Math.floor(((k + 1) * sorted.length) / nBins)]))].filter((c) => c > sorted[0]).sort((a, b) => a - b);
  const overall = rankStatuses(fit, LADDER_STATUSES);
  const overallOrder = [...overall, ...LADDER_STATUSES.filter((s) => !overall.includes(s))];
  const members: LadderRow[][] = Array.from({ length: cuts.length + 1 }, () => []);
  for (const r of fit) members[binIndex(cuts, r.score)].push(r);
  const bins = members.map((m) => ({ n: m.length, statuses: m.length ? rankStatuses(m, overallOrder) : overall }));
  // A valid program's reward is 0.5 + 0.5 x position, so its position is read back from the reward.
  const ran = fit.filter((r) => r.status === 'valid');
  const position = fitIsotonic(ran.map((r) => r.score), ran.map((r) => Math.min(1, Math.max(0, (r.reward - 0.5) * 2))));
  return ladderReading(cuts, bins, gate, fitIsotonic(fit.map((r) => r.score), fit.map((r) => r.reward)), ran.length ? position : knotCalibrator([0], [0]));
}

function binIndex(cuts: readonly number[], s: number): number {
  let b = 0;
  while (b < cuts.length && s >= cuts[b]) b++;
  return b;
}

function ladderReading(cuts: readonly number[], bins: LadderReading['bins'], gate: boolean, reward: Calibrator, position: Calibrator): LadderReading {
  return {
    read(score, program) {
      if (gate && program.blank) return { statuses: ['malformed', 'syntax error'], reward: 0, quality: null };
      if (gate && !program.compiles) return { statuses: ['syntax error', 'malformed'], reward: 0, quality: null };
      const statuses = bins[binIndex(cuts, score)].statuses;
      const quality = statuses[0] === 'valid' ? qualityBucket(Math.min(1, Math.max(0, position.predict(score)))) : null;
      return { statuses, reward: reward.predict(score), quality };
    },
    cuts,
    bins,
    gate,
    reward,
    position,
  };
}

/** The reading's file name in a models folder. */
export const READING_FILE = 'ladder-reading.json';

/** A reading as a file: what it was fitted on travels with it, for the page to say. */
export interface LadderReadingFile {
  format: 'wmrl-ladder-reading';
  version: 1;
  /** what the scores are and what the reading was fitted on, in words */
  fittedOn: string;
  gate: boolean;
  cuts: number[];
  bins: { n: number; statuses: [LadderStatus, LadderStatus] }[];
  reward: { x: number[]; y: number[] };
  position: { x: number[]; y: number[] };
}

export function ladderReadingJSON(reading: LadderReading, fittedOn: string): LadderReadingFile {
  const knots = (c: Calibrator) => ({ x: [...c.knots.x], y: [...c.knots.y] });
  return { format: 'wmrl-ladder-reading', version: 1, fittedOn, gate: reading.gate, cuts: [...reading.cuts], bins: reading.bins.map((b) => ({ n: b.n, statuses: [...b.statuses] })), reward: knots(reading.reward), position: knots(reading.position) };
}

/** Reads a reading file back; anything malformed is refused with a message naming `path` and the field. */
export function parseLadderReading(text: string, path: string): { reading: LadderReading; fittedOn: string } {
  const bad = (why: string): never => {
    throw new Error(`${path}: not a ladder reading (${why})`);
  };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return bad(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const f = raw as Partial<LadderReadingFile>;
  if (typeof f !== 'object' || f === null || f.format !== 'wmrl-ladder-reading' || f.version !== 1) bad('format or version');
  const numbers = (v: unknown, what: string): number[] => (Array.isArray(v) && v.every((n) => typeof n === 'number' && Number.isFinite(n)) ? (v as number[]) : bad(`${what} must be finite numbers`));
  const cuts = numbers(f.cuts, 'cuts');
  for (let i = 1; i < cuts.length; i++) if (!(cuts[i] > cuts[i - 1])) bad('cuts must increase');
  if (!Array.isArray(f.bins) || f.bins.length !== cuts.length + 1) bad('one bin more than cuts');
  const bins = f.bins!.map((b, i) => {
    const ok = b && Number.isInteger(b.n) && b.n >= 0 && Array.isArray(b.statuses) && b.statuses.length === 2 && b.statuses.every((s) => (LADDER_STATUSES as readonly string[]).includes(s));
    return ok ? { n: b.n, statuses: [b.statuses[0], b.statuses[1]] as [LadderStatus, LadderStatus] } : bad(`bin ${i}`);
  });
  const calibrator = (k: unknown, what: string): Calibrator => {
    const c = k as { x?: unknown; y?: unknown } | null;
    const x = numbers(c?.x, `${what}.x`);
    const y = numbers(c?.y, `${what}.y`);
    if (y.some((v, i) => v < 0 || v > 1 || (i > 0 && v < y[i - 1]))) bad(`${what}.y must rise within [0, 1]`);
    try {
      return knotCalibrator(x, y);
    } catch (e) {
      return bad(`${what}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  if (typeof f.gate !== 'boolean' || typeof f.fittedOn !== 'string') bad('gate and fittedOn');
  return { reading: ladderReading(cuts, bins, f.gate!, calibrator(f.reward, 'reward'), calibrator(f.position, 'position')), fittedOn: f.fittedOn! };
}
