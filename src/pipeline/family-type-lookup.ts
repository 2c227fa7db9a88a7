// The family x task-type lookup as a scorer of programs: the baseline wm-eval reports beside the world
// model (wm-baselines.ts), stored as a small table with the models so that a run can score programs
// with it in the world model's place (the paper-wmrl-lookup control). A program's keys, most specific
// first: its toolkit family with its task's type, then the family alone; the fitting set's overall mean
// last. The same keys and fit serve wm-eval's row and the stored table, so the scorer trained with is
// the lookup reported.
import { fitMeanLookup, meanLookupOf, type MeanLookup } from './mean-lookup.ts';
import { programFamily } from './program-family.ts';
import { cardTaskType } from './sample-summary.ts';

/** Its file in a models folder (listed in the manifest, checked like a model file). */
export const LOOKUP_FILE = 'family-type-lookup.json';

export interface FamilyTypeLookupFile {
  format: 'wmrl-family-type-lookup';
  version: 1;
  /** What it was fitted on, in words (population, size, settings). */
  fittedOn: string;
  overall: number;
  minCount: number;
  /** key -> [mean outcome, fitting programs], keys sorted */
  keys: Record<string, [number, number]>;
}

/** A program's keys, most specific first. */
export function familyTypeKeys(program: string, taskType: string): string[] {
  const family = programFamily(program);
  return [`${family}|${taskType}`, family];
}

export function fitFamilyTypeLookup(fit: readonly { program: string; taskType: string; y: number }[]): MeanLookup {
  return fitMeanLookup(fit.map((p) => ({ keys: familyTypeKeys(p.program, p.taskType), y: p.y })));
}

export function familyTypeLookupFile(lookup: MeanLookup, fittedOn: string): FamilyTypeLookupFile {
  const keys: Record<string, [number, number]> = {};
  for (const k of [...lookup.means.keys()].sort()) keys[k] = [lookup.means.get(k)!, lookup.counts.get(k)!];
  return { format: 'wmrl-family-type-lookup', version: 1, fittedOn, overall: lookup.overall, minCount: lookup.minCount, keys };
}

/** Reads a stored table back; `path` names the file in messages. */
export function parseFamilyTypeLookup(text: string, path: string): { lookup: MeanLookup; fittedOn: string } {
  const bad = (why: string): never => {
    throw new Error(`${path}: not a family x task-type lookup (${why})`);
  };
  let f: Partial<FamilyTypeLookupFile>;
  try {
    f = JSON.parse(text) as Partial<FamilyTypeLookupFile>;
  } catch (e) {
    return bad(e instanceof Error ? e.message : String(e));
  }
  if (f.format !== 'wmrl-family-type-lookup' || f.version !== 1) bad('format or version');
  const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
  if (!finite(f.overall) || !finite(f.minCount) || typeof f.keys !== 'object' || f.keys === null) bad('overall, minCount or keys');
  const means = new Map<string, number>();
  const counts = new Map<string, number>();
  for (const [k, v] of Object.entries(f.keys!)) {
    if (!Array.isArray(v) || v.length !== 2 || !finite(v[0]) || !Number.isInteger(v[1]) || v[1] < 1) bad(`key ${JSON.stringify(k)}`);
    means.set(k, v[0]);
    counts.set(k, v[1]);
  }
  return { lookup: meanLookupOf(means, counts, f.overall!, f.minCount!), fittedOn: typeof f.fittedOn === 'string' ? f.fittedOn : '' };
}

/** The lookup's score of a program written for a card (the card's first sentence states the task type). */
export function scoreWithLookup(lookup: MeanLookup, card: string, program: string): number {
  const type = cardTaskType(card);
  // a card without a stated type (none in the suite) falls back to the family alone
  return lookup.predict(type ? familyTypeKeys(program, type) : [programFamily(program)]);
}
