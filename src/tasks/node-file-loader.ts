// Node-side loader for the task registry: reads the suite's files from a folder on disk. Kept apart
// from task-registry.ts so the browser bundle never imports node:fs.

import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { TaskDataError } from './task-errors.ts';
import type { TaskFileLoader } from './task-registry.ts';

export function nodeFileLoader(rootDir: string): TaskFileLoader {
  const root = resolve(rootDir);
  return async (relativePath) => {
    const full = resolve(root, relativePath);
    if (!full.startsWith(root + sep)) throw new TaskDataError('bad_task_file', `path ${JSON.stringify(relativePath)} leaves the task folder`);
    try {
      return await readFile(full, 'utf8');
    } catch (e) {
      throw new TaskDataError('bad_task_file', `could not read ${relativePath}: ${(e as Error).message}`);
    }
  };
}
