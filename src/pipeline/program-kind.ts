// Which kind of task a toolkit program's model is built for, read from the constructors it calls:
// 'regression' for a regressor, 'classification' for a classifier, null when it names neither (or
// both, as a validation choice across kinds would). Used to measure how often the policy writes a
// program of the wrong task type for its card.

import { programFamilies } from '../sandbox-pyodide/reference-programs.ts';

const REGRESSORS = new Set(programFamilies.map((f) => f.classes.regression).filter((c): c is string => c !== null));
const CLASSIFIERS = new Set(programFamilies.flatMap((f) => [f.classes.binary, f.classes.multiclass]).filter((c): c is string => c !== null));

export function programTaskKind(source: string): 'regression' | 'classification' | null {
  const used = [...source.matchAll(/tk\.([A-Z][A-Za-z]+)\s*\(/g)].map((m) => m[1]);
  const reg = used.some((c) => REGRESSORS.has(c));
  const cls = used.some((c) => CLASSIFIERS.has(c));
  if (reg === cls) return null;
  return reg ? 'regression' : 'classification';
}
