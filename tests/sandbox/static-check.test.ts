// The free verifier's script (static_check.py) in the browser's own sandbox pool, as wmrl-static
// runs it (one interpreter reused): the hostile inputs are rejected with their reasons
// before anything parses them, so the interpreter survives, the batch keeps every other answer, and
// the next batch is answered by the same worker. Chromium's worker stack is not Node's, so the depth
// limit is checked here too.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { job, openSandbox, type SandboxSession } from './harness.ts';
import { VERIFIER_LIMITS, verifierRequest, verifierTimeoutMs } from '../../src/training/static-checks.ts';

const SOURCE = readFileSync(resolve(import.meta.dirname, '../../src/sandbox-pyodide/python/static_check.py'), 'utf8');
const GOOD = 'import toolkit as tk\nm = tk.Ridge(alpha=1.0)\n';

describe('static_check.py in the browser pool', () => {
  let s: SandboxSession;
  beforeAll(async () => {
    s = await openSandbox();
    await s.start({ size: 1, maxRunsPerWorker: 1_000, spares: 0 });
  }, 180_000);
  afterAll(async () => s?.close());

  const check = async (programs: string[]) => {
    const r = await s.run({ ...job(SOURCE, verifierTimeoutMs(programs.length)), files: { 'train.csv': '', 'test.csv': '', 'task.json': verifierRequest(programs) } });
    expect(r.status, `${r.reason ?? ''} ${r.traceback ?? ''}`).toBe('ok');
    expect(r.stderr).toBe('');
    return { answers: JSON.parse(r.stdout.trim()) as { ok: boolean; reason?: string }[], worker: r.interpreter };
  };

  it('rejects the hostile inputs alone and answers their neighbours, and the same worker answers the next batch', async () => {
    const first = await check([
      GOOD,
      'x = 1' + '+1'.repeat(5000) + '\n',
      'x = ' + 'not '.repeat(3000) + '1\n',
      'x = f"' + '{a}'.repeat(VERIFIER_LIMITS.maxFstringFields + 1) + '"\n',
      'import re\np = re.compile("\\d+")\n',
      // just under the depth limit: what Chromium's worker stack must still compile
      'x = 1' + '+1'.repeat(VERIFIER_LIMITS.maxDepth - 10) + '\n',
      // nesting across lines: a 16 KB elif chain (each elif an if in the previous one's else), then one just under the limit
      'x = 1\nif x:0\n' + 'elif x:0\n'.repeat(1800),
      'x = 1\nif x:0\n' + 'elif x:0\n'.repeat(VERIFIER_LIMITS.maxDepth - 10),
      GOOD,
    ]);
    expect(first.answers.map((a) => a.ok)).toEqual([true, false, false, false, true, true, false, true, true]);
    expect(first.answers[1].reason).toMatch(/nested too deeply/);
    expect(first.answers[2].reason).toMatch(/nested too deeply/);
    expect(first.answers[3].reason).toMatch(/f-string with more than/);
    expect(first.answers[6].reason).toMatch(/nested too deeply to check: blocks, elif branches/);
    const second = await check([GOOD, 'def f(:\n']);
    expect(second.answers.map((a) => a.ok)).toEqual([true, false]);
    expect(second.worker).toBe(first.worker);
  }, 180_000);
});
