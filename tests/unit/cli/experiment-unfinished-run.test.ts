// The coding runner's side file of an unfinished run: what the page saved comes back byte for byte
// (weights, NaN and all), and a file that is not this run's continuation is refused with the reason:
// unreadable, another format, another request, other code, or a run so far that does not hold together.
// The browser half (a real run killed and started again) is in tests/e2e/experiment-cli.test.ts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUnfinishedExperimentRun, UNFINISHED_EXPERIMENT_FORMAT, writeUnfinishedExperimentRun, type UnfinishedExperimentRun } from '../../../src/cli/experiment-unfinished-run.ts';
import { UnfinishedRunRefused } from '../../../src/cli/unfinished-run.ts';
import type { RunRequest, RunSoFar } from '../../../src/experiments/run-result.ts';
import { typedJsonReplacer, typedJsonReviver } from '../../../src/primitives/typed-json.ts';
import { presetConfig } from '../../../src/training/presets.ts';
import { tempFolders } from '../../temp-folders.ts';

const tmp = tempFolders('experiment-unfinished-');
const CODE = 'c0de'.repeat(16);

const request = (over: Partial<RunRequest> = {}): RunRequest => ({
  kind: 'train', preset: 'paper-wmrl', seed: 3, config: presetConfig('paper-wmrl', { seed: 3, steps: 4 }), evalK: 1, evalTaskIds: ['a', 'b'],
  models: 'committed', poolSize: null, executionTimeoutMs: 10_000, workRule: 2, keepPrograms: false, evalAtSteps: [2], ...over,
});

/** A run so far after `step` steps, shaped as the page writes it (records and curve carry only what the checks read). */
function runSoFar(step: number, over: Partial<RunSoFar> = {}): RunSoFar {
  const r = request();
  return {
    checkpoint: { format: 'wmrl-trainer', version: 1, config: r.config, step, method: {} as never, policy: { params: new Float32Array([1, -0, NaN, 3.5]), optimizer: null }, cost: {} as never },
    records: Array.from({ length: step }, (_, i) => ({ step: i, meanReward: 0.25 }) as never),
    curve: step >= 2 ? [{ step: 2, trainingBusyMs: 1, avgAtK: 0.5, evaluation: {} as never }] : [],
    startedAt: '2026-12-06T07:00:00.000Z', startupMs: 10, wallMs: 100, ...over,
  };
}

function save(dir: string, so: RunSoFar, over: Partial<UnfinishedExperimentRun> = {}): string {
  const path = join(dir, 'paper-wmrl-seed3.unfinished');
  writeUnfinishedExperimentRun(path, {
    format: UNFINISHED_EXPERIMENT_FORMAT, version: 1, request: request(), codeSha256: CODE, step: so.checkpoint.step,
    segments: [{ commit: 'abc', dirty: false, startedAt: so.startedAt, endedAt: so.startedAt, fromStep: 0, toStep: so.checkpoint.step, wallMs: 100, machine: '2 cores' }],
    runSoFar: JSON.stringify(so, typedJsonReplacer), ...over,
  });
  return path;
}

const refusal = (path: string, r = request(), code = CODE): string => {
  try {
    readUnfinishedExperimentRun(path, r, code);
  } catch (e) {
    expect(e).toBeInstanceOf(UnfinishedRunRefused);
    return (e as Error).message;
  }
  throw new Error('not refused');
};

describe('the coding runner\'s unfinished-run file', () => {
  it('gives back the page\'s run so far as it was saved: weights, -0 and NaN included', () => {
    const so = runSoFar(3);
    const path = save(tmp(), so);
    const back = readUnfinishedExperimentRun(path, request(), CODE);
    expect(back.step).toBe(3);
    expect(back.segments).toHaveLength(1);
    const revived = JSON.parse(back.runSoFar, typedJsonReviver) as RunSoFar;
    expect(revived.checkpoint.policy.params).toBeInstanceOf(Float32Array);
    expect(Array.from(revived.checkpoint.policy.params)).toEqual([1, -0, NaN, 3.5]);
    expect(Object.is(revived.checkpoint.policy.params[1], -0)).toBe(true);
    expect(revived.records).toEqual(so.records);
    expect(revived.curve).toEqual(so.curve);
    // the page's text went in unparsed: the file is the header with it appended
    expect(readFileSync(path, 'utf8').endsWith(`"runSoFar":${JSON.stringify(so, typedJsonReplacer)}}`)).toBe(true);
  });

  it('refuses a file that cannot be read, or is of another format', () => {
    const dir = tmp();
    const path = join(dir, 'x.unfinished');
    writeFileSync(path, '{"format": "wmrl-experiment-run-unfin');
    expect(refusal(path)).toMatch(/not a readable unfinished run .*move it aside \(or rerun with --force/);
    writeFileSync(path, JSON.stringify({ format: 'wmrl-robot-run-unfinished', version: 1 }));
    expect(refusal(path)).toMatch(/not an unfinished experiment run of version 1 \(format "wmrl-robot-run-unfinished"\)/);
  });

  it('refuses another request\'s run, naming the difference, and another code\'s', () => {
    const path = save(tmp(), runSoFar(2));
    expect(refusal(path, request({ seed: 4, config: presetConfig('paper-wmrl', { seed: 4, steps: 4 }) }))).toMatch(/another request than this command's .*seed: 3 vs 4/);
    expect(refusal(path, request(), 'f'.repeat(64))).toMatch(/run by other code \(commit abc, code hash c0dec0dec0de; this checkout's code hash is ffffffffffff\)/);
    // nothing was deleted on the way
    expect(existsSync(path)).toBe(true);
  });

  it('refuses a run so far that does not hold together', () => {
    const dir = tmp();
    expect(refusal(save(dir, runSoFar(3), { step: 2 }))).toMatch(/names step 2 but its checkpoint is after step 3/);
    expect(refusal(save(dir, runSoFar(3, { records: runSoFar(2).records })))).toMatch(/2 step records for 3 steps done/);
    expect(refusal(save(dir, runSoFar(5)))).toMatch(/step 5 is not one of 0\.\.4/);
    expect(refusal(save(dir, runSoFar(1, { curve: runSoFar(2).curve })))).toMatch(/evaluation after step 2 is not one of the request's points up to step 1/);
    expect(refusal(save(dir, runSoFar(3, { curve: [{ ...runSoFar(2).curve[0], step: 3 }] })))).toMatch(/evaluation after step 3 is not one of the request's points/);
    const noWeights = runSoFar(2);
    (noWeights.checkpoint as { policy: unknown }).policy = { params: [1, 2] };
    expect(refusal(save(dir, noWeights))).toMatch(/holds no policy weights/);
  });

  it('holds nothing for an SFT row, which never trains', () => {
    const path = save(tmp(), runSoFar(0));
    const sft = request({ kind: 'sft', config: { ...request().config, steps: 0 } });
    writeUnfinishedExperimentRun(path, { format: UNFINISHED_EXPERIMENT_FORMAT, version: 1, request: sft, codeSha256: CODE, step: 0, segments: [], runSoFar: JSON.stringify(runSoFar(0), typedJsonReplacer) });
    expect(refusal(path, sft)).toMatch(/a 'sft' run has nothing to go on from/);
  });
});
