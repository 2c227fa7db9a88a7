// `npm run experiment -- --domain robot`: runs write one file each, a second invocation skips what is
// done, another request reruns, and the same request in another folder gives the same run (timings
// aside), and each run file carries its provenance. Small sizes with the committed policy and progress model.
// --plan picks the table the summaries decide; the default (v1) rewrites the committed folders unchanged.
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRobotOptions, robotTables, runRobotExperiment, RobotUsageError, writeRobotTables, type RobotExperimentOptions } from '../../src/cli/robot-experiment.ts';
import { robotRunBehaviour, type RobotRunResult } from '../../src/embodied/robot-run.ts';
import { isRunProvenance, type WithProvenance } from '../../src/experiments/provenance.ts';
import { pythonLibraryHash } from '../../src/sandbox-pyodide/node-runner.ts';
import { tempFolders } from '../temp-folders.ts';

const root = join(import.meta.dirname, '../..');
const tmp = tempFolders('robot-experiment-');

const options = (out: string, extra: string[] = []): RobotExperimentOptions => {
  const o = parseRobotOptions(['--presets', 'robot-sft,robot-wmrl', '--steps', '1', '--B', '2', '--G', '2', '--horizon', '12', '--eval-states', '1', '--eval-trials', '2', '--out', out, ...extra], root);
  if (o === 'help') throw new Error('unexpected help');
  return o;
};
const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as RobotRunResult;

describe('the robot experiment runner', () => {
  it('rejects bad options with a clear message', () => {
    expect(() => parseRobotOptions(['--presets', 'robot-nope'], root)).toThrow(/unknown robot preset "robot-nope"/);
    expect(() => parseRobotOptions(['--G', '1'], root)).toThrow(RobotUsageError);
    expect(() => parseRobotOptions(['--dense-reward', 'sum'], root)).toThrow(/--dense-reward must be one of delta, final, max/);
    expect(() => parseRobotOptions(['--seeds', '1,1'], root)).toThrow(/each seed once/);
    expect(() => parseRobotOptions(['--normalise', 'sum'], root)).toThrow(/--normalise must be one of constant, per-rollout/);
    expect(() => parseRobotOptions(['--eval-temperature', '0', '--eval-trials', '4'], root)).toThrow(/greedy evaluation .* repeats itself/);
    expect(() => parseRobotOptions(['--eval-trials', '0'], root)).toThrow(/--eval-trials must be a positive integer/);
    expect(() => parseRobotOptions(['--report-only', '--force'], root)).toThrow(/--report-only runs nothing/);
    expect(() => parseRobotOptions(['--plan', 'robot-table-v3'], root)).toThrow(/--plan "robot-table-v3": no such robot table plan \(the plans: robot-table, robot-table-v2\)/);
  });

  it('--plan: robot-table by default, robot-table-v2 on request, recorded in the command', () => {
    const v1 = parseRobotOptions([], root);
    const v2 = parseRobotOptions(['--plan', 'robot-table-v2', '--report-only'], root);
    if (v1 === 'help' || v2 === 'help') throw new Error('unexpected help');
    expect([v1.plan.name, v2.plan.name]).toEqual(['robot-table', 'robot-table-v2']);
    expect(v2.command).toBe('npm run experiment -- --domain robot --plan robot-table-v2');
  });

  it('the default plan rewrites the committed robot folders byte for byte from their own commands', () => {
    for (const folder of ['results/robot-table', 'results/robot-pilot-v2/lr1e-4', 'results/robot-pilot-v2/lr3e-4']) {
      const committed = (name: string) => readFileSync(join(root, folder, name), 'utf8');
      const args = (JSON.parse(committed('summary.json')) as { command: string }).command.replace(/^npm run experiment -- --domain robot /, '').split(' ');
      const o = parseRobotOptions(args, root);
      if (o === 'help') throw new Error('unexpected help');
      const { runs, files } = robotTables({ ...o, out: join(root, folder) });
      expect(runs.length, folder).toBeGreaterThan(0);
      for (const [name, text] of Object.entries(files)) expect(text, `${folder}/${name}`).toBe(committed(name));
    }
  });

  it('--plan robot-table-v2 decides the pilot\'s real run files by v2\'s rows and tests, and summary.json names it', () => {
    const out = tmp();
    cpSync(join(root, 'results/robot-pilot-v2/lr3e-4/runs'), join(out, 'runs'), { recursive: true });
    const o = parseRobotOptions(['--presets', 'robot-sft,robot-paper-grpo-sparse', '--seeds', '101,102', '--plan', 'robot-table-v2', '--out', out, '--report-only'], root);
    if (o === 'help') throw new Error('unexpected help');
    expect(writeRobotTables(o)).toHaveLength(2);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { plan: string; rows: { preset: string; seeds: number[] }[]; tests: { id: string; a: string; b: string }[] };
    expect(summary.plan).toBe('robot-table-v2');
    expect(summary.rows.map((r) => [r.preset, r.seeds])).toEqual([['robot-sft', []], ['robot-paper-grpo-sparse', [101, 102]], ['robot-paper-wmrl', []], ['robot-paper-wmrl-anchors', []], ['robot-paper-progress-only', []]]);
    expect(summary.tests.find((t) => t.id === 'R1')).toMatchObject({ a: 'robot-paper-grpo-sparse', b: 'robot-sft' });
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(md).toMatch(/^# Robot table v2 \(issue 46, `--plan robot-table-v2`\)\n/);
    // a pilot's seeds are not the plan's: its summary says it decides nothing for the plan, and marks no verdict provisional
    expect(md).toContain("No run here is at the plan's seeds (11, 12, 13, 14, 15, 16, 17, 18, 19, 20): a pilot or a side experiment.");
    expect(md).not.toContain('provisional');
  });

  it('evaluates sampled (temperature 1, 4 trials) by default; greedy on request takes one trial; --normalise reaches the config', () => {
    const o = parseRobotOptions([], root);
    if (o === 'help') throw new Error('unexpected help');
    expect([o.evalTemperature, o.evalTrials]).toEqual([1, 4]);
    const g = parseRobotOptions(['--eval-temperature', '0', '--normalise', 'constant'], root);
    if (g === 'help') throw new Error('unexpected help');
    expect([g.evalTemperature, g.evalTrials, g.overrides.normalise]).toEqual([0, 1, 'constant']);
  });

  it('writes a run file per run, skips finished runs, reruns a changed request, and is deterministic', async () => {
    const out = tmp();
    const quiet = () => {};
    const first = await runRobotExperiment(options(out), quiet);
    expect(first.map((x) => x.status)).toEqual(['ran', 'ran']);
    const wmrl = read(join(out, 'runs/robot-wmrl-seed1.json'));
    expect(wmrl.steps).toHaveLength(1);
    expect(wmrl.steps[0].groups.filter((g) => g.anchor)).toHaveLength(1);
    // sampled by default, 2 trials per held-out state
    expect([wmrl.evaluation.temperature, wmrl.evaluation.trials]).toEqual([1, 2]);
    expect(wmrl.evaluation.trainTasksHeldoutStates.episodes).toBe(40);
    expect(wmrl.evaluation.heldoutTasksHeldoutStates.episodes).toBe(10);
    expect(wmrl.request.config.normalise).toBe('per-rollout');
    // the runner's provenance: this checkout's HEAD, the toolkit hash, its clock around the run
    const { provenance } = wmrl as WithProvenance<RobotRunResult>;
    expect(isRunProvenance(provenance)).toBe(true);
    expect(provenance).toMatchObject({ commit: execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim(), toolkitHash: pythonLibraryHash() });
    expect(Date.parse(provenance!.finishedAt)).toBeGreaterThan(Date.parse(provenance!.startedAt));
    expect(read(join(out, 'runs/robot-sft-seed1.json')).steps).toHaveLength(0);
    expect(readFileSync(join(out, 'runs.csv'), 'utf8').trim().split('\n')).toHaveLength(3);
    // The table is rewritten after every run: both rows, the plan's tests, the command that ran them.
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    expect(summary).toMatch(/^\| robot-wmrl \| 1 \| /m);
    expect(summary).toMatch(/^\| robot-sft \| 1 \| /m);
    expect(summary).toMatch(/^\| primary \| robot-wmrl - robot-grpo-sparse \| 0 \|.*\| not run \|$/m);
    expect(summary).toContain('`npm run experiment -- --domain robot --presets robot-sft,robot-wmrl --steps 1');
    expect(summary).toMatch(new RegExp(`^Source: commit ${provenance!.commit!.slice(0, 7)} \\(2 runs\\)`, 'm'));
    // summary.json is what the build publishes for the companion (scripts/vendor-assets.mjs picks it by its format).
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toMatchObject({ format: 'wmrl-robot-table-summary', version: 1 });
    // --report-only rewrites the same tables from the files alone, recording the plan's command, not itself.
    const reportOnly = parseRobotOptions(['--presets', 'robot-sft,robot-wmrl', '--steps', '1', '--B', '2', '--G', '2', '--horizon', '12', '--eval-states', '1', '--eval-trials', '2', '--out', out, '--report-only'], root);
    if (reportOnly === 'help') throw new Error('unexpected help');
    expect(reportOnly.reportOnly).toBe(true);
    expect(writeRobotTables(reportOnly)).toHaveLength(2);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toBe(summary);

    const again = await runRobotExperiment(options(out), quiet);
    expect(again.map((x) => x.status)).toEqual(['skipped', 'skipped']);
    // a training setting reruns the trained row, not the SFT row, which never trains
    const changed = await runRobotExperiment(options(out, ['--lr', '1e-3']), quiet);
    expect(changed.map((x) => x.status)).toEqual(['skipped', 'ran']);

    const other = tmp();
    await runRobotExperiment(options(other), quiet);
    expect(robotRunBehaviour(read(join(other, 'runs/robot-wmrl-seed1.json')))).toEqual(robotRunBehaviour(wmrl));
  }, 600_000);
});
