// The free verifier (static_check.py) in the trusted Node runner: it must reject what cannot run
// (syntax, repeated or unknown constructor keywords), pass every program the toolkit's own
// composer writes, and never execute what it reads, however hostile.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { composeProgram } from '../../../src/pipeline/program-composer.ts';
import { judgeEach, parseStaticChecks, VERIFIER_LIMITS, verifierRequest } from '../../../src/training/static-checks.ts';
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
        const r = await runner.run(SOURCE + "\nimport os\nprint('LEFT', sorted(os.listdir('.')))\n", '', '', verifierRequest(programs), 60_000);
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

  it('the issue\'s hostile inputs: each is rejected with its reason, its neighbours keep their answers, and the verifier lives on', async () => {
    const good = 'import toolkit as tk\nm = tk.Ridge(alpha=1.0)\n';
    const programs = [
      good,
      'x = 1' + '+1'.repeat(5000) + '\n', // 10 KB: overflowed Pyodide's stack in the compiler
      good,
      'x = ' + 'not '.repeat(3000) + '1\n',
      'x = f"' + '{a}'.repeat(VERIFIER_LIMITS.maxFstringFields + 1) + '"\n', // fields compile in quadratic time
      'x = [' + '1,'.repeat(1_000_000) + ']\n', // a 2 MB list literal
      'x = (' + '-'.repeat(400) + '1)\n',
      good,
    ];
    const out = await check(programs);
    expect(out).toHaveLength(programs.length);
    expect(out.map((x) => x.ok)).toEqual([true, false, true, false, false, false, false, true]);
    expect(out[1].reason).toMatch(/nested too deeply to check/);
    expect(out[3].reason).toMatch(/nested too deeply to check/);
    expect(out[4].reason).toMatch(/f-string with more than 256 fields/);
    expect(out[5].reason).toMatch(/too large to check: 2000007 bytes, limit 16384/);
    expect(out[6].reason).toMatch(/nested too deeply/);
    // the interpreter survived: a later batch gets its answers
    expect(await check([good, 'def f(:\n'])).toEqual([{ ok: true }, expect.objectContaining({ ok: false })]);
  });

  it('nesting across lines counts too: a 16 KB elif chain is rejected before it parses, and the same interpreter checks the next program', async () => {
    const good = 'import toolkit as tk\nm = tk.Ridge(alpha=1.0)\n';
    const head = 'x = 1\nif x:0\n';
    // each elif is an If in the previous one's orelse: 1,200 overflowed Pyodide's stack
    const elifChain = head + 'elif x:0\n'.repeat(Math.floor((VERIFIER_LIMITS.maxSourceBytes - head.length) / 9));
    expect(elifChain.length).toBeGreaterThan(16_000);
    expect(elifChain.length).toBeLessThanOrEqual(VERIFIER_LIMITS.maxSourceBytes);
    const programs = [
      elifChain,
      'x = 1' + '+1'.repeat(300) + '\n', // on one line
      'x = (1\n' + '+1\n'.repeat(300) + ')\n', // across lines, inside brackets
      'x = 1' + ' \\\n+1'.repeat(300) + '\n', // across lines, backslash continuations
      'def f(a):\n    if a:\n        pass\n' + '    elif a:\n        pass\n'.repeat(250), // an elif chain in a block
      good,
    ];
    // straight through the shared interpreter: a fatal error there would fail the run below
    const r = await runner.run(SOURCE, '', '', verifierRequest(programs), 60_000);
    expect(r.status, r.traceback).toBe('ok');
    const out = JSON.parse(r.stdout.trim()) as { ok: boolean; reason?: string }[];
    expect(out.map((x) => x.ok)).toEqual([false, false, false, false, false, true]);
    expect(out[0].reason).toMatch(/^nested too deeply to check: blocks, elif branches and expressions together over 200 levels deep \(line 202; limit 200\)$/);
    for (const a of out.slice(1, 4)) expect(a.reason).toMatch(/^nested too deeply to check: an expression over 200 levels deep/);
    expect(out[4].reason).toMatch(/^nested too deeply to check: blocks, elif branches/);
    expect(await runner.run(SOURCE, '', '', verifierRequest([good, 'def f(:\n']), 60_000)).toMatchObject({ status: 'ok' });
    // chains that end, however many, do not add up; a chain within the limit passes
    const separate = 'if x:\n    pass\nelif y:\n    pass\n'.repeat(300);
    expect(await check([separate, head + 'elif x:0\n'.repeat(150), 'def f(a):\n' + '    if a:\n        pass\n    elif a:\n        pass\n'.repeat(200)])).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
  });

  it('within the limits, deep but legal code still passes (no false rejections near the limit)', async () => {
    const out = await check([
      'x = 1' + '+1'.repeat(150) + '\n',
      'x = [' + Array.from({ length: 2000 }, (_, i) => `-${i}`).join(', ') + ']\n',
      'y = f"' + '{a}'.repeat(200) + '"\n',
    ]);
    expect(out).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
  });

  it('warnings never reach the output: 512 programs with "\\d" strings check in one run with nothing on stderr', async () => {
    const programs = Array.from({ length: 512 }, (_, i) => `import re\npat${i} = re.compile("\\d+")\n`);
    const r = await runner.run(SOURCE, '', '', verifierRequest(programs), 120_000);
    expect(r.status, r.traceback).toBe('ok');
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout.trim())).toEqual(programs.map(() => ({ ok: true })));
  });

  it('a check that passes its time limit rejects that program with the reason (the limit read from the request)', async () => {
    const request = JSON.parse(verifierRequest(['x = 1\n', 'def f(:\n'])) as { limits: Record<string, number> };
    request.limits.program_seconds = 0;
    const r = await runner.run(SOURCE, '', '', JSON.stringify(request), 60_000);
    const out = JSON.parse(r.stdout.trim()) as { ok: boolean; reason?: string }[];
    expect(out[0]).toEqual({ ok: false, reason: expect.stringMatching(/^took \d+\.\d s to check, limit 0 s$/) });
    expect(out[1].reason).toMatch(/does not compile/);
  });

  it('arbitrary strings each get exactly one answer, a pass or a rejection with a reason (property)', async () => {
    const fragment = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'grapheme', maxLength: 20 }),
      fc.constantFrom('+1', 'not ', '(', ')', '[', 'f"{a}', '"\\d"', '\n', '    ', 'import toolkit as tk\n', 'tk.Ridge(alpha=1)', 'lambda: ', '\udc80', '\u0000', '#'),
    );
    const program = fc.oneof(fc.string({ maxLength: 200 }), fc.array(fragment, { maxLength: 60 }).map((p) => p.join('')), fc.tuple(fragment, fc.integer({ min: 1, max: 3000 })).map(([f, n]) => f.repeat(n)));
    await fc.assert(
      fc.asyncProperty(fc.array(program, { minLength: 1, maxLength: 12 }), async (programs) => {
        const out = await check(programs);
        expect(out).toHaveLength(programs.length);
        for (const a of out) expect(a.ok === true ? a : typeof a.reason === 'string' && a.reason.length > 0).toBeTruthy();
      }),
      { numRuns: 40 },
    );
  });

  it('judgeEach: a batch the verifier fails is judged again one program at a time, so one program never sinks its neighbours', async () => {
    const calls: number[] = [];
    const runChunk = async (chunk: readonly string[]) => {
      calls.push(chunk.length);
      if (chunk.includes('POISON')) throw new Error('static check: the verifier failed (Pyodide has suffered a fatal error)');
      return chunk.map(() => ({ ok: true as const }));
    };
    const out = await judgeEach(['a', 'POISON', 'b', 'x'.repeat(VERIFIER_LIMITS.maxSourceBytes + 1)], runChunk);
    expect(out).toEqual([
      { ok: true },
      { ok: false, reason: 'the verifier could not judge it: the verifier failed (Pyodide has suffered a fatal error)' },
      { ok: true },
      { ok: false, reason: `too large to check: ${VERIFIER_LIMITS.maxSourceBytes + 1} bytes, limit ${VERIFIER_LIMITS.maxSourceBytes}` },
    ]);
    // the oversized program was never sent; the failed batch of 3 was retried one by one
    expect(calls).toEqual([3, 1, 1, 1]);
  });
});
