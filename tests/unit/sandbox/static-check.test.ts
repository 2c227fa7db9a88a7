// The free verifier (static_check.py) in the trusted Node runner: it must reject what cannot run
// (syntax, repeated or unknown constructor keywords), pass every program the toolkit's own
// composer writes, and never execute what it reads, however hostile.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { composeProgram } from '../../../src/pipeline/program-composer.ts';
import { parseStaticChecks } from '../../../src/training/static-checks.ts';
import { NodeStaticVerifier } from '../../../src/cli/node-verifier.ts';
import { TrustedPyodideRunner } from '../../../src/sandbox-pyodide/node-runner.ts';
import { mulberry32 } from '../../../src/primitives/random.ts';

const SOURCE = readFileSync(resolve(import.meta.dirname, '../../../src/sandbox-pyodide/python/static_check.py'), 'utf8');
let runner: TrustedPyodideRunner;
let verifier: NodeStaticVerifier;
beforeAll(async () => {
  runner = await TrustedPyodideRunner.create({ outputCap: 1 << 22 });
  verifier = await NodeStaticVerifier.create(runner);
}, 60_000);

const check = (programs: string[]) => verifier.check(programs);

describe('the static check (static_check.py)', { timeout: 120_000 }, () => {
  it('rejects broken syntax, a repeated keyword and a keyword the constructor does not take; passes the rest', async () => {
    const out = await check([
      'import toolkit as tk\nm = tk.Ridge(alpha=1.0)\n',
      'import toolkit as tk\nm = tk.Ridge(alpha=1.0, n_trees=3)\n',
      'import toolkit as tk\npre = tk.Preprocessor(impute=\'median\', scale=\'standard\'\n',
      'import toolkit as tk\nm = tk.Ridge(alpha=1, alpha=2)\n',
      'import toolkit as t\nm = t.KNeighborsRegressor(min_samples_leaf=3)\n',
      // a keyword given through ** cannot be checked statically: not rejected
      'import toolkit as tk\nkw = {"n_trees": 3}\nm = tk.Ridge(**kw)\n',
      // not the toolkit: not checked
      'class Ridge:\n    pass\nimport toolkit as tk\nm = Ridge()\n',
    ]);
    expect(out.map((x) => x.ok)).toEqual([true, false, false, false, false, true, true]);
    expect(out[1].reason).toMatch(/Ridge\(\.\.\.\) takes no keyword 'n_trees'/);
    expect(out[2].reason).toMatch(/does not compile: SyntaxError/);
    expect(out[3].reason).toMatch(/keyword argument repeated/);
    expect(out[4].reason).toMatch(/KNeighborsRegressor/);
  });

  it('passes every program the corpus composer writes (no false rejections on valid code)', async () => {
    const rng = mulberry32(5);
    const programs = (['regression', 'binary', 'multiclass'] as const).flatMap((type) =>
      Array.from({ length: 40 }, () => composeProgram(type, type === 'regression' ? 'rmse' : type === 'binary' ? 'auc' : 'accuracy', rng).source));
    const out = await check(programs);
    const wrong = out.map((x, i) => (x.ok ? null : `${x.reason}\n${programs[i]}`)).filter(Boolean);
    expect(wrong).toEqual([]);
  });

  it('never runs what it reads: a hostile program leaves no trace, however it is written', async () => {
    const hostile = fc.constantFrom(
      "open('PWNED', 'w').write('x')\nprint('RAN')\n",
      "import os\nos.makedirs('PWNED')\nprint('RAN')\n",
      "print('RAN')\n" + 'x = ' + '('.repeat(500) + ')'.repeat(500) + '\n',
      "def f():\n    print('RAN')\nf()\n" + '[' + '1,'.repeat(20000) + ']\n',
      "raise SystemExit(print('RAN'))\n",
    );
    await fc.assert(
      fc.asyncProperty(fc.array(hostile, { minLength: 1, maxLength: 4 }), async (programs) => {
        const r = await runner.run(SOURCE + "\nimport os\nprint('LEFT', sorted(os.listdir('.')))\n", '', '', JSON.stringify({ programs }), 60_000);
        expect(r.status, r.traceback).toBe('ok');
        expect(r.stdout).not.toContain('RAN');
        expect(r.stdout).toContain("LEFT ['task.json', 'test.csv', 'train.csv']");
        expect(JSON.parse(r.stdout.split('\n')[0])).toHaveLength(programs.length);
      }),
      { numRuns: 8 },
    );
  });

  it('an answer that is missing, short or garbled is an error, never a pass', () => {
    expect(() => parseStaticChecks(null, 2, 'timeout')).toThrow(/verifier failed \(timeout\)/);
    expect(() => parseStaticChecks('[{"ok": true}]', 2, '')).toThrow(/1 answers for 2 programs/);
    expect(() => parseStaticChecks('PWNED', 1, '')).toThrow(/no answer/);
    expect(parseStaticChecks('[{"ok": "yes"}, {"ok": true}]', 2, '')).toEqual([{ ok: false, reason: 'rejected' }, { ok: true }]);
  });
});
