// The fitting set of wm-eval's baselines and ladder readings: programs of the TRAINING tasks that the
// committed build ran, with their real outcomes, rebuilt from the build's settings and seeds and read
// from the committed outcome store (nothing runs). Two kinds, both deterministic to rebuild:
//   - the corpus's composed programs (the first `composedRunPerTask` distinct per task, as the
//     composed-programs variant ran them): working programs of many configurations;
//   - the programs broken on purpose (program-mutants.ts, the samples stage's seeds): the failures.
// The policy's own training samples are not in it: re-sampling 3,200 programs is about an hour on
// this machine. A program the store lacks is left out and counted.

import { buildCorpus, type CorpusTask } from './corpus.ts';
import type { GradedRun } from './graded-runs.ts';
import { mutantsOf, spliceMutantsOf, syntaxMutantsOf, wrongTypeMutantsOf } from './program-mutants.ts';
import { outcomeKey, type StoredOutcome } from './outcome-store.ts';
import { hashString } from '../primitives/random.ts';
import { deriveSeed, mulberry32 } from '../primitives/random.ts';

export interface FitSetSettings {
  seed: number;
  composedPerTask: number;
  balanceTypes?: boolean;
  syntheticCardShare?: number;
  samples: { mutantsPerTask: number; wrongTypePerTask: number; syntaxPerTask: number; splicePerTask?: number; timeoutMs: number };
}

export interface FitProgram {
  taskId: string;
  card: string;
  program: string;
  origin: 'composed' | 'mutant';
  status: GradedRun['status'];
  y: number;
}

export function fitSetPrograms(tasks: readonly CorpusTask[], settings: FitSetSettings, lookup: (key: string) => StoredOutcome | undefined, composedRunPerTask = 200): { programs: FitProgram[]; missing: number } {
  const corpus = buildCorpus(tasks, { seed: settings.seed, composedPerTask: settings.composedPerTask, balanceTypes: settings.balanceTypes, syntheticCardShare: settings.syntheticCardShare });
  const s = settings.samples;
  const out: FitProgram[] = [];
  const seen = new Set<string>();
  let missing = 0;
  const add = (t: CorpusTask, program: string, origin: FitProgram['origin']): void => {
    const k = `${t.id}\u0000${program}`;
    if (seen.has(k)) return;
    seen.add(k);
    const o = lookup(outcomeKey(t.id, program, s.timeoutMs));
    if (!o) {
      missing++;
      return;
    }
    if (Number.isNaN(o.run.y)) return;
    out.push({ taskId: t.id, card: t.card, program, origin, status: o.run.status, y: o.run.y });
  };
  for (const t of tasks.filter((x) => x.split === 'train' && x.role === 'scored').sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const sources = corpus.filter((e) => e.taskId === t.id).map((e) => e.source);
    for (const p of [...new Set(corpus.filter((e) => e.taskId === t.id && e.origin === 'composed').map((e) => e.source))].slice(0, composedRunPerTask)) add(t, p, 'composed');
    const mutants = [
      ...mutantsOf(sources, s.mutantsPerTask, mulberry32(deriveSeed(settings.seed, hashString(t.id), 11))),
      ...wrongTypeMutantsOf(sources, t.type, s.wrongTypePerTask, mulberry32(deriveSeed(settings.seed, hashString(t.id), 12))),
      ...syntaxMutantsOf(sources, s.syntaxPerTask, mulberry32(deriveSeed(settings.seed, hashString(t.id), 13))),
      ...spliceMutantsOf(sources, s.splicePerTask ?? 0, mulberry32(deriveSeed(settings.seed, hashString(t.id), 14))),
    ];
    for (const m of mutants) add(t, m.source, 'mutant');
  }
  return { programs: out, missing };
}
