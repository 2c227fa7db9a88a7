// Scratch folders for a test file: each call makes a fresh one under the system's temp folder, and
// all of them are removed after the file's tests (vitest's afterAll), passing or failing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function tempFolders(prefix: string): () => string {
  const made: string[] = [];
  afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
  return () => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    made.push(d);
    return d;
  };
}
