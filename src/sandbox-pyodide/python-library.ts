// The Python files every sandbox worker places on sys.path: the toolkit package and the program
// runner, as the toolkit side bundles them (python/sources.ts), so the locked-down worker needs no fetch.
import { pythonFiles } from './python/sources.ts';

/** Files keyed by path relative to the library root, e.g. `toolkit/table.py`. */
export function pythonLibrary(): Record<string, string> {
  return pythonFiles();
}
