// Stage 1: the (card, program) corpus the tokenizer and the SFT policy learn from. Training tasks
// only (held-out tasks never enter it): each task's card paired with the reference programs of its
// type and metric, and with programs composed from the same families by a seeded generator.

import { referencePrograms } from '../sandbox-pyodide/reference-programs.ts';
import type { TaskIndexEntry } from '../tasks/task-index.ts';
import { hashString } from '../primitives/random.ts';
import { deriveSeed, mulberry32 } from '../primitives/random.ts';
import { composeProgram } from './program-composer.ts';
import { syntheticCard } from './synthetic-card.ts';

export type CorpusTask = Pick<TaskIndexEntry, 'id' | 'split' | 'role' | 'type' | 'metric' | 'card'>;

export interface CorpusEntry {
  taskId: string;
  card: string;
  programId: string;
  family: string;
  origin: 'reference' | 'composed';
  source: string;
  /** the card is drawn by syntheticCard (same type and metric as the task), not the task's own */
  syntheticCard?: boolean;
}

export interface CorpusOptions {
  seed: number;
  /** Composed programs per task (distinct from each other and from the references). */
  composedPerTask: number;
  /**
   * Compose more programs for task types with fewer training tasks, so that each type gets about the
   * same number of composed programs (the suite has 8 multiclass, 6 binary and 5 regression training tasks).
   */
  balanceTypes?: boolean;
  /** Share of composed programs paired with a synthetic card of their task's type and metric (0 = none). */
  syntheticCardShare?: number;
}

/** Training tasks, sorted by id so the corpus does not depend on the index order. */
export function trainingTasks<T extends CorpusTask>(tasks: readonly T[]): T[] {
  return tasks.filter((t) => t.split === 'train').sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function buildCorpus(tasks: readonly CorpusTask[], options: CorpusOptions): CorpusEntry[] {
  const out: CorpusEntry[] = [];
  const train = trainingTasks(tasks);
  const perType = new Map<string, number>();
  for (const t of train) perType.set(t.type, (perType.get(t.type) ?? 0) + 1);
  const most = Math.max(...perType.values());
  for (const task of train) {
    const quota = options.balanceTypes ? Math.round((options.composedPerTask * most) / perType.get(task.type)!) : options.composedPerTask;
    const refs = referencePrograms(task.type, task.metric);
    const seen = new Set<string>();
    for (const r of refs) {
      seen.add(r.source);
      out.push({ taskId: task.id, card: task.card, programId: r.id, family: r.family, origin: 'reference', source: r.source });
    }
    const rng = mulberry32(deriveSeed(options.seed, hashString(task.id)));
    // A generator of its own, so the composed programs do not depend on the synthetic-card share.
    const cardRng = mulberry32(deriveSeed(options.seed, hashString(task.id), 1));
    let made = 0;
    // Bounded attempts: small families can run out of distinct programs.
    for (let attempt = 0; made < quota && attempt < quota * 20; attempt++) {
      const p = composeProgram(task.type, task.metric, rng);
      if (seen.has(p.source)) continue;
      seen.add(p.source);
      const synthetic = cardRng() < (options.syntheticCardShare ?? 0);
      const card = synthetic ? syntheticCard(task.type, task.metric, cardRng) : task.card;
      out.push({ taskId: task.id, card, programId: `composed_${made}_${p.id}`, family: p.family, origin: 'composed', source: p.source, ...(synthetic ? { syntheticCard: true } : {}) });
      made++;
    }
  }
  return out;
}

/** The texts the tokenizer is trained on: every distinct card and program once. */
export function corpusTexts(corpus: readonly CorpusEntry[]): string[] {
  return [...new Set(corpus.flatMap((e) => [e.card, e.source]))];
}
