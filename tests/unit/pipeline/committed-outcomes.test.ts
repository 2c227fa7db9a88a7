// The committed outcome store (data/models-build/outcomes.jsonl): hours of sandbox executions that
// a rebuild of the world model reuses. An outcome is only true for the toolkit it ran against, and
// its key does not say which; so the store records the Python library's hash, and a toolkit change
// fails here until the store is remeasured or removed.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pythonLibraryHash } from '../../../src/sandbox-pyodide/node-runner.ts';
import type { StoredOutcome } from '../../../src/pipeline/outcome-store.ts';

const dir = resolve(import.meta.dirname, '../../../data/models-build');
const meta = JSON.parse(readFileSync(resolve(dir, 'outcomes.meta.json'), 'utf8')) as { pythonLibraryHash: string; outcomes: number; timeoutMs: number };
const lines = readFileSync(resolve(dir, 'outcomes.jsonl'), 'utf8').trim().split('\n');

describe('the committed outcome store', () => {
  it('was measured against this toolkit (else remeasure it, or delete it and its meta file)', () => {
    expect(meta.pythonLibraryHash).toBe(pythonLibraryHash());
  });

  it('holds one well-formed outcome per key, as many as its meta file says', () => {
    const outcomes = lines.map((l) => JSON.parse(l) as StoredOutcome);
    expect(outcomes).toHaveLength(meta.outcomes);
    expect(new Set(outcomes.map((o) => o.key)).size).toBe(outcomes.length);
    for (const o of outcomes) {
      expect(o.key).toMatch(/^[0-9a-f]{32}$/);
      expect(o.timeoutMs).toBe(meta.timeoutMs);
      expect(o.run.taskId).toBe(o.taskId);
      expect(['ok', 'error', 'timeout', 'invalid']).toContain(o.run.status);
      if (o.run.status !== 'ok') expect(o.run.y).toBe(0);
    }
  });
});
