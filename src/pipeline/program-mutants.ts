// Programs broken on purpose, for the world model's data: each is a valid toolkit program with one
// edit of the kind the policy's own failures show (a duplicated keyword, a hyperparameter of another
// model family, a bad value, a line dropped, a garbled name). They are then run for their real
// outcome, like any sample, so a mutant that still runs is labelled by its score, not assumed broken.
// Pairs that differ by one edit teach the world model where in the code a failure lives.

import { programFamilies } from '../sandbox-pyodide/reference-programs.ts';
import type { Rng } from '../primitives/random.ts';
import { randomInt } from '../primitives/random.ts';

export type MutationKind = 'duplicate-keyword' | 'foreign-keyword' | 'bad-value' | 'drop-line' | 'garble-name';
export const MUTATION_KINDS: readonly MutationKind[] = ['duplicate-keyword', 'foreign-keyword', 'bad-value', 'drop-line', 'garble-name'];

export interface Mutant {
  kind: MutationKind;
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
  const originals = new Set(sources);
  const seen = new Set<string>();
  const out: Mutant[] = [];
  for (let attempt = 0; out.length < n && attempt < n * 20 && sources.length > 0; attempt++) {
    const m = mutateProgram(pick(rng, sources), pick(rng, MUTATION_KINDS), rng);
    if (!m || originals.has(m.source) || seen.has(m.source)) continue;
    seen.add(m.source);
    out.push(m);
  }
  return out;
}
