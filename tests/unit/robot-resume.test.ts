// `npm run experiment -- --domain robot` resumes a run stopped mid-way: stopped after each of its steps
// in turn (and once more before its evaluation), then started again, it writes the uninterrupted run's
// file, timings and provenance aside, with its segments listed and their times summed. A side file
// that is not the run's own continuation (unreadable, another request or policy, other code) is
// refused and kept as it was; --force deletes it and starts over. The committed policy and progress
// model at small sizes.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRobotOptions, runRobotExperiment, RobotRunnerStopped, type RobotExperimentOptions } from '../../src/cli/robot-experiment.ts';
import { robotRunBehaviour, type RobotRunResult } from '../../src/embodied/robot-run.ts';
import type { WithProvenance } from '../../src/experiments/provenance.ts';
import { tempFolders } from '../temp-folders.ts';

const root = join(import.meta.dirname, '../..');
const tmp = tempFolders('robot-resume-');

// robot-paper-wmrl: the binned calibrator fed every rollout, the anchor weight, std advantages: the
// most state a run carries between steps.
const options = (out: string, extra: string[] = []): RobotExperimentOptions => {
  const o = parseRobotOptions(['--presets', 'robot-paper-wmrl', '--steps', '3', '--B', '2', '--G', '2', '--horizon', '10', '--eval-states', '1', '--eval-trials', '1', '--out', out, ...extra], root);
  if (o === 'help') throw new Error('unexpected help');
  return o;
};
const quiet = () => {};
const runFile = (out: string) => join(out, 'runs/robot-paper-wmrl-seed1.json');
const sideFile = (out: string) => join(out, 'runs/robot-paper-wmrl-seed1.unfinished');
const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as WithProvenance<RobotRunResult>;

describe('the robot runner resumes a run stopped mid-way', () => {
  let whole: WithProvenance<RobotRunResult>;
  let afterOneStep: string;

  it('stopped after every step and before the evaluation, it ends with the uninterrupted run\'s file, timings aside', async () => {
    const a = tmp();
    expect((await runRobotExperiment(options(a), quiet)).map((x) => x.status)).toEqual(['ran']);
    whole = read(runFile(a));
    expect(whole.provenance?.segments).toBeUndefined();
    expect(existsSync(sideFile(a))).toBe(false);

    const b = tmp();
    const lines: string[] = [];
    for (let k = 1; k <= 3; k++) {
      // a stop right after step k's save, as a kill would leave it: no run file, no .failed.json
      await expect(runRobotExperiment(options(b), (l) => lines.push(l), { stopAfterSteps: 1 })).rejects.toThrow(RobotRunnerStopped);
      expect(existsSync(runFile(b))).toBe(false);
      expect(existsSync(join(b, 'runs/robot-paper-wmrl-seed1.failed.json'))).toBe(false);
      expect(existsSync(sideFile(b))).toBe(true);
      if (k === 1) afterOneStep = readFileSync(sideFile(b), 'utf8');
    }
    expect(lines.filter((l) => l.includes('resuming after step'))).toEqual([
      expect.stringMatching(/resuming after step 1 of 3 .*segment 2/),
      expect.stringMatching(/resuming after step 2 of 3 .*segment 3/),
    ]);
    // all three steps are done: this invocation evaluates only
    expect((await runRobotExperiment(options(b), quiet)).map((x) => x.status)).toEqual(['ran']);
    expect(existsSync(sideFile(b))).toBe(false);
    const resumed = read(runFile(b));
    expect(robotRunBehaviour(resumed)).toEqual(robotRunBehaviour(whole));
    // what differs is honestly about time: the provenance (with its segments), the step and run timings, the machine line
    const segments = resumed.provenance!.segments!;
    expect(segments.map((s) => [s.fromStep, s.toStep])).toEqual([[0, 1], [1, 2], [2, 3], [3, 3]]);
    const head = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    expect(segments.every((s) => s.commit === head)).toBe(true);
    expect(resumed.provenance!.startedAt).toBe(segments[0].startedAt);
    expect(resumed.provenance!.finishedAt).toBe(segments[3].endedAt);
    expect(resumed.wallMs).toBeCloseTo(segments.reduce((t, s) => t + s.wallMs, 0), 6);
  }, 600_000);

  it('refuses a side file that is unreadable, of another request or policy, or from other code, and keeps it; --force starts over', async () => {
    const c = tmp();
    mkdirSync(join(c, 'runs'));
    const refused = async (text: string, extra: string[] = []) => {
      writeFileSync(sideFile(c), text);
      const [outcome] = await runRobotExperiment(options(c, extra), quiet);
      expect(outcome.status).toBe('failed');
      expect(readFileSync(sideFile(c), 'utf8')).toBe(text);
      expect(existsSync(runFile(c))).toBe(false);
      return outcome.error!;
    };
    const left = /It is left as it is: to start this run over, move it aside \(or rerun with --force/;
    expect(await refused(afterOneStep.slice(0, afterOneStep.length >> 1))).toMatch(/not a readable unfinished run/);
    expect(await refused(afterOneStep.replace(/"\$f32":"[A-Za-z0-9+/]{8}/, '"$f32":"!!!!!!!!'))).toMatch(/not a readable unfinished run \(a weight array is damaged/);
    expect(await refused(afterOneStep, ['--lr', '1e-3'])).toMatch(/another request than this command's \(the file's vs this command's: config\.lr: 0\.0002 vs 0\.001\)/);
    const policySha256 = whole.request.policySha256;
    expect(await refused(afterOneStep.replace(policySha256, 'f'.repeat(64)))).toMatch(new RegExp(`another request .*policySha256: "f{64}" vs "${policySha256}"`));
    expect(await refused(afterOneStep.replace(/"codeSha256":"[0-9a-f]{8}/, '"codeSha256":"00000000'))).toMatch(/run by other code \(commit [0-9a-f]{7}[^,]*, code hash 00000000/);
    expect(await refused(afterOneStep.replace('"format":"wmrl-robot-run-unfinished"', '"format":"wmrl-robot-run"'))).toMatch(left);

    // --force deletes it and runs from the start: the uninterrupted run again
    const lines: string[] = [];
    expect((await runRobotExperiment(options(c, ['--force']), (l) => lines.push(l))).map((x) => x.status)).toEqual(['ran']);
    expect(lines.some((l) => /--force: deleted its unfinished run/.test(l))).toBe(true);
    expect(robotRunBehaviour(read(runFile(c)))).toEqual(robotRunBehaviour(whole));
    expect(read(runFile(c)).provenance?.segments).toBeUndefined();
    // a side file of the finished run (a stop between writing the run file and deleting it) is deleted when skipped
    writeFileSync(sideFile(c), afterOneStep);
    expect((await runRobotExperiment(options(c), quiet)).map((x) => x.status)).toEqual(['skipped']);
    expect(existsSync(sideFile(c))).toBe(false);
  }, 600_000);
});
