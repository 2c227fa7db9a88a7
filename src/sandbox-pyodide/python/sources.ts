// The Python library the sandbox places on sys.path: the toolkit package and the program runner.
// Keys are paths relative to the library root; `import toolkit` and `import wmrl_runner` then work.
// Vite inlines the files as strings at build time, so a worker receives them without any fetch.

const toolkitModules = import.meta.glob('./toolkit/*.py', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

import runnerSource from './runner.py?raw';

/** Module name under which runner.py is importable in the sandbox. */
export const RUNNER_MODULE = 'wmrl_runner';

/** Every Python file of the library, keyed by its path relative to the library root. */
export function pythonFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [path, text] of Object.entries(toolkitModules)) files[path.replace(/^\.\//, '')] = text;
  files[`${RUNNER_MODULE}.py`] = runnerSource;
  return files;
}
