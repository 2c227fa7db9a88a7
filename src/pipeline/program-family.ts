// Which toolkit model family a program uses, read from the toolkit constructors it calls: the family
// of the one family it builds, 'several' when it builds models of more than one family (a select_best
// over candidates), 'none' when it builds none. The key of the family lookup baselines of wm-eval.

import { programFamilies } from '../sandbox-pyodide/reference-programs.ts';

const FAMILY_OF_CLASS = new Map<string, string>(programFamilies.flatMap((f) => Object.values(f.classes).filter((c): c is string => c !== null).map((c) => [c, f.family] as const)));

export function programFamily(source: string): string {
  const families = new Set<string>();
  for (const m of source.matchAll(/\btk\.([A-Z][A-Za-z]+)\s*\(/g)) {
    const f = FAMILY_OF_CLASS.get(m[1]);
    if (f) families.add(f);
  }
  if (families.size === 0) return 'none';
  return families.size === 1 ? [...families][0] : 'several';
}
