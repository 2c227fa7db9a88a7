// Programs broken on purpose, for the world model's data: each is a valid toolkit program with one
// edit of the kind the policy's own failures show (a duplicated keyword, a hyperparameter of another
// model family, a bad value, a line dropped, a garbled name). They are then run for their real
// outcome, like any sample, so a mutant that still runs is labelled by its score, not assumed broken.
// Pairs that differ by one edit teach the world model where in the code a failure lives.

import { programFamilies } from '../sandbox-pyodide/reference-programs.ts';
import type { TaskType } from '../tasks/task-types.ts';
import type { Rng } from '../primitives/random.ts';
import { randomInt } from '../primitives/random.ts';

export type MutationKind = 'duplicate-keyword' | 'foreign-keyword' | 'bad-value' | 'drop-line' | 'garble-name';
/** every kind of edit: the kinds above, a model of another task type, broken syntax, and a splice */
export type MutantKind = MutationKind | 'wrong-type' | 'syntax' | 'splice';
export const MUTATION_KINDS: readonly MutationKind[] = ['duplicate-keyword', 'foreign-keyword', 'bad-value', 'drop-line', 'garble-name'];

export interface Mutant {
  kind: MutantKind;
  source: string;
}

const ALL_KEYWORDS = [...new Set(programFamilies.flatMap((f) => Object.keys(f.hyperparameters)))];

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[randomInt(rng, items.length)];
}

/** Model constructor calls `tk.Name(args)` with their argument text, by position in the source. */
function constructorCalls(source: string): { start: number; end: number; name: string; args: string }[] {
  return [...source.matchAll(/tk\.([A-Z][A-Za-z]+)\(([^()]*)\)/g)]
    .filter((m) => m[1] !== 'Preprocessor' && m[1] !== 'TargetTransform')
    .map((m) => ({ start: m.index!, end: m.index! + m[0].length, name: m[1], args: m[2] }));
}

function replaceCall(source: string, call: { start: number; end: number; name: string }, args: string): string {
  return source.slice(0, call.start) + `tk.${call.name}(${args})` + source.slice(call.end);
}

/** One mutant of `source` of the given kind, or null when the program offers no place for it. */
export function mutateProgram(source: string, kind: MutationKind, rng: Rng): Mutant | null {
  const calls = constructorCalls(source);
  switch (kind) {
    case 'duplicate-keyword': {
      const withArgs = calls.filter((c) => /\w+=/.test(c.args));
      if (withArgs.length === 0) return null;
      const c = pick(rng, withArgs);
      const args = c.args.split(',').map((a) => a.trim()).filter(Boolean);
      const kw = pick(rng, args.filter((a) => a.includes('=')));
      return { kind, source: replaceCall(source, c, [...args, kw].join(', ')) };
    }
    case 'foreign-keyword': {
      if (calls.length === 0) return null;
      const c = pick(rng, calls);
      const own = programFamilies.find((f) => Object.values(f.classes).includes(c.name));
      const foreign = ALL_KEYWORDS.filter((k) => !own || !(k in own.hyperparameters));
      const k = pick(rng, foreign);
      const v = pick(rng, programFamilies.find((f) => k in f.hyperparameters)!.hyperparameters[k]);
      const lit = v === null ? 'None' : typeof v === 'string' ? `'${v}'` : String(v);
      return { kind, source: replaceCall(source, c, [c.args.trim(), `${k}=${lit}`].filter(Boolean).join(', ')) };
    }
    case 'bad-value': {
      const numeric = calls.filter((c) => /\w+=\d/.test(c.args));
      if (numeric.length === 0) return null;
      const c = pick(rng, numeric);
      const bad = pick(rng, ['0', '-1', "'auto'"]);
      let done = false;
      const args = c.args.replace(/(\w+)=(\d[\d.e-]*)/, (_m, k: string) => {
        done = true;
        return `${k}=${bad}`;
      });
      return done ? { kind, source: replaceCall(source, c, args) } : null;
    }
    case 'drop-line': {
      const lines = source.split('\n');
      const candidates = lines.map((l, i) => i).filter((i) => lines[i].trim() && !lines[i].startsWith('import'));
      if (candidates.length === 0) return null;
      const i = pick(rng, candidates);
      return { kind, source: [...lines.slice(0, i), ...lines.slice(i + 1)].join('\n') };
    }
    case 'garble-name': {
      const names = [...source.matchAll(/\b(X_test|X|task\.y|task\.train|task\.test|model|pre)\b/g)];
      if (names.length === 0) return null;
      const m = pick(rng, names);
      const garbled = pick(rng, ['X_tset', 'Xt', 'task.Y', 'task.train_', 'modle', 'pre.train']);
      return { kind, source: source.slice(0, m.index!) + garbled + source.slice(m.index! + m[0].length) };
    }
  }
}

/** n distinct mutants of the given programs (each differing from every original), seeded. */
export function mutantsOf(sources: readonly string[], n: number, rng: Rng): Mutant[] {
  return distinctMutants(sources, n, () => mutateProgram(pick(rng, sources), pick(rng, MUTATION_KINDS), rng));
}

const TASK_TYPES: readonly TaskType[] = ['regression', 'binary', 'multiclass'];

/**
 * The first policy's commonest failure: a model of another task type (a classifier on a regression
 * target, or the reverse). Swaps one constructor for a class of the same family written for another
 * type, or for another family's when this one has none; the arguments stay, so the program is
 * exactly one name away from the original. Its own generator stream, so adding it leaves the other
 * kinds' mutants (and their stored outcomes) unchanged.
 */
export function wrongTypeMutant(source: string, taskType: TaskType, rng: Rng): Mutant | null {
  const calls = constructorCalls(source).filter((c) => programFamilies.some((f) => f.classes[taskType] === c.name));
  if (calls.length === 0) return null;
  const c = pick(rng, calls);
  const family = programFamilies.find((f) => f.classes[taskType] === c.name)!;
  // binary and multiclass share their classifiers: "another type" means a class this type never uses
  const fits = new Set(programFamilies.map((f) => f.classes[taskType]));
  const otherNames = (families: readonly (typeof programFamilies)[number][]) =>
    [...new Set(families.flatMap((f) => TASK_TYPES.map((t) => f.classes[t])))].filter((n): n is string => !!n && !fits.has(n));
  const own = otherNames([family]);
  const names = own.length > 0 ? own : otherNames(programFamilies);
  if (names.length === 0) return null;
  return { kind: 'wrong-type', source: replaceCall(source, { ...c, name: pick(rng, names) }, c.args) };
}

/** n distinct wrong-type mutants of the given programs of one task type, seeded. */
export function wrongTypeMutantsOf(sources: readonly string[], taskType: TaskType, n: number, rng: Rng): Mutant[] {
  return distinctMutants(sources, n, () => wrongTypeMutant(pick(rng, sources), taskType, rng));
}

/**
 * The policy's commonest failure at high temperature on held-out cards: text that does not parse
 * (a bracket dropped or mismatched, a string left open, a garbled number, a comma lost). One
 * character-level edit at a random place of the matching kind.
 */
export function syntaxMutant(source: string, rng: Rng): Mutant | null {
  const edits: { at: RegExp; to: (m: string) => string }[] = [
    { at: /\)/g, to: () => '' },
    { at: /\)/g, to: () => '}' },
    { at: /\(/g, to: () => '{' },
    { at: /'/g, to: () => '' },
    { at: /\d\.\d/g, to: (m) => m.replace('.', '..') },
    { at: /\d+/g, to: (m) => `${m}e` },
    { at: /, /g, to: () => ' ' },
  ];
  const edit = pick(rng, edits);
  const places = [...source.matchAll(edit.at)];
  if (places.length === 0) return null;
  const m = pick(rng, places);
  return { kind: 'syntax', source: source.slice(0, m.index!) + edit.to(m[0]) + source.slice(m.index! + m[0].length) };
}

/** n distinct syntax mutants of the given programs, seeded. */
export function syntaxMutantsOf(sources: readonly string[], n: number, rng: Rng): Mutant[] {
  return distinctMutants(sources, n, () => syntaxMutant(pick(rng, sources), rng));
}

/**
 * A language model's own slip, the commonest shape of the policy's failures on held-out cards at
 * T 1.0: at a short context that occurs twice within a few dozen characters, it goes on from the
 * other occurrence, so it skips the text between them (`max_categories=fit_transform(task.train)`)
 * or writes it twice. The result often breaks a bracket, sometimes only drops or repeats an
 * argument and still runs: running it decides.
 */
export function spliceMutant(source: string, rng: Rng): Mutant | null {
  const anchor = 2 + randomInt(rng, 4);
  const maxSpan = 80;
  const seen = new Map<string, number[]>();
  const pairs: [number, number][] = [];
  for (let i = 0; i + anchor <= source.length; i++) {
    const key = source.slice(i, i + anchor);
    if (key.includes('\n')) continue;
    const earlier = seen.get(key) ?? [];
    for (const a of earlier) if (i - a >= anchor && i - a <= maxSpan) pairs.push([a, i]);
    earlier.push(i);
    seen.set(key, earlier);
  }
  if (pairs.length === 0) return null;
  const [a, b] = pick(rng, pairs);
  const skip = rng() < 0.6;
  return { kind: 'splice', source: skip ? source.slice(0, a) + source.slice(b) : source.slice(0, b) + source.slice(a) };
}

/** n distinct splice mutants of the given programs, seeded. */
export function spliceMutantsOf(sources: readonly string[], n: number, rng: Rng): Mutant[] {
  return distinctMutants(sources, n, () => spliceMutant(pick(rng, sources), rng));
}

function distinctMutants(sources: readonly string[], n: number, make: () => Mutant | null): Mutant[] {
  const originals = new Set(sources);
  const seen = new Set<string>();
  const out: Mutant[] = [];
  for (let attempt = 0; out.length < n && attempt < n * 20 && sources.length > 0; attempt++) {
    const m = make();
    if (!m || originals.has(m.source) || seen.has(m.source)) continue;
    seen.add(m.source);
    out.push(m);
  }
  return out;
}
