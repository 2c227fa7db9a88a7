// The page's view of the controls experiment (results/controls-40): how far it has come and each
// test's reading, as its summary.md prints them, so an unfinished experiment never reads as decided.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controlsView, type ExperimentSummary } from '../../../src/ui/companion/our-results.ts';
import { CONTROLS_ROWS, decideControls } from '../../../src/experiments/controls-table.ts';
import { summarisePresets } from '../../../src/experiments/aggregate.ts';
import { evaluation, run } from '../experiments/run-fixtures.ts';
import { REPO_ROOT } from '../../run-cli.ts';

/** A 40-step run evaluated every 5 steps at a constant score. */
function trained(preset: string, seed: number, avg: number) {
  const r = run(preset, seed, avg, null);
  r.curve = [5, 10, 15, 20, 25, 30, 35, 40].map((step) => ({ step, trainingBusyMs: 0, avgAtK: avg, evaluation: evaluation(avg) }));
  return r;
}

function summaryOf(runs: ReturnType<typeof trained>[]): ExperimentSummary {
  const presets = CONTROLS_ROWS.map((r) => r.preset);
  return { format: 'wmrl-experiment-summary', version: 1, command: 'npm run experiment', presets: summarisePresets(runs, presets), plan: 'controls-40', controls: decideControls(runs) };
}

describe("the companion's view of the controls experiment", () => {
  it('is absent for a summary its plan does not decide', () => {
    expect(controlsView({ format: 'wmrl-experiment-summary', version: 1, command: '', presets: [] })).toBeNull();
  });

  it('reads the committed summary as summary.md does: its runs against the plan, in progress until all are in', () => {
    const summary = JSON.parse(readFileSync(join(REPO_ROOT, 'results/controls-40/summary.json'), 'utf8')) as ExperimentSummary;
    const view = controlsView(summary)!;
    const md = readFileSync(join(REPO_ROOT, 'results/controls-40/summary.md'), 'utf8');
    expect(view.runsPlanned).toBe(96);
    expect(md).toContain(`In progress: ${view.runsDone} of ${view.runsPlanned} planned runs finished`);
    expect(view.complete).toBe(false);
    // what the primary test detects at the spread measured so far, as summary.md states it
    expect(md).toContain(`(${view.detectable!.sd.toFixed(1)} over ${view.tests[0].test.seeds.length} seeds), the primary test would detect ${view.detectable!.detectable.toFixed(1)} points at 16 seeds.`);
    for (const { test, reading } of view.tests) expect(md).toMatch(new RegExp(`^\\| ${test.id} \\|.*\\| ${reading.replace(/[()]/g, '\\$&')} \\|$`, 'm'));
  });

  it('calls a decided reading provisional until every row it waits for has its planned seeds, and final after', () => {
    const seeds = CONTROLS_ROWS[1].seeds;
    // paper-wmrl 10 points above its anchors alone on every seed (with a little spread): the primary decides early
    const rows = (upTo: number) => seeds.slice(0, upTo).flatMap((s, i) => [
      trained('paper-wmrl', s, 60 + (i % 3)), trained('paper-anchors-only', s, 50), trained('paper-wmrl-lookup', s, 55),
      trained('paper-grpo-matched', s, 55), trained('paper-grpo-all-real', s, 58),
    ]);
    const partial = controlsView(summaryOf(rows(5)))!;
    expect(partial.complete).toBe(false);
    expect(partial.tests[0].reading).toBe('paper-wmrl above (provisional)');
    const whole = controlsView(summaryOf(rows(seeds.length)))!;
    expect(whole.runsDone).toBe(5 * seeds.length);
    // the SFT row is planned too: without it the plan is not complete, but the primary test does not wait for it
    expect(whole.complete).toBe(false);
    expect(whole.tests[0].reading).toBe('paper-wmrl above');
  });
});
