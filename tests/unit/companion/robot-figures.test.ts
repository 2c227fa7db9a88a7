// The companion's robot section reads its figures from the committed reports, not from constants:
// each figure equals the report's field, and a report missing a field is refused by name.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAPER_ROBOT_ROWS, policyFigures, progressFigures, v2Reading } from '../../../src/ui/companion/robot-figures.ts';
import type { RobotTableSummary } from '../../../src/experiments/robot-table.ts';

const root = resolve(import.meta.dirname, '../../..');
const progressReport = JSON.parse(readFileSync(resolve(root, 'results/robot-progress/report.json'), 'utf8'));
const policyReport = JSON.parse(readFileSync(resolve(root, 'results/robot-bc/report-egocentric-octants-readout-dagger-then-10000-steps.json'), 'utf8'));

describe('robot figures', () => {
  it('the progress model\'s held-out validation, field by field', () => {
    const f = progressFigures(progressReport);
    expect(f.heldoutStates).toEqual({
      rollouts: progressReport.heldoutStates.episodes, successes: progressReport.heldoutStates.successes, frames: progressReport.heldoutStates.frames,
      framePearson: progressReport.heldoutStates.framePearson, denseAuc: progressReport.heldoutStates.denseAucForSuccess, labelAuc: progressReport.heldoutStates.labelDenseAucForSuccess,
    });
    expect(f.heldoutTasks.rollouts).toBe(80);
    expect(f.trainingFrames).toBe(progressReport.training.frames);
  });

  it('the BC policy\'s success and teacher-forced accuracy', () => {
    const f = policyFigures(policyReport);
    expect(f.heldoutStates).toEqual({ episodes: policyReport.trainTasksHeldoutStates.episodes, successes: policyReport.trainTasksHeldoutStates.successes, teacherForced: policyReport.teacherForced.trainTasksHeldoutStates.accuracy });
    expect(f.heldoutTasks.successes).toBe(policyReport.heldoutTasksHeldoutStates.successes);
  });

  it('refuses a report without a figure, naming the field', () => {
    const broken = structuredClone(progressReport);
    delete broken.heldoutTasks.framePearson;
    expect(() => progressFigures(broken)).toThrow('progress-report.json: heldoutTasks.framePearson is not a number');
    expect(() => policyFigures({})).toThrow('policy-report.json: training.examples is not a number');
  });

  it('the paper\'s rows: WMRL over SFT is the difference of Table 3\'s numbers', () => {
    const sft = PAPER_ROBOT_ROWS.find((r) => r.row === 'SFT policy')?.success ?? NaN;
    for (const r of PAPER_ROBOT_ROWS) if (r.success !== null && r.overSft !== null) expect(r.overSft).toBeCloseTo(r.success - sft, 9);
  });
});

describe("robot table v2's reading on the page", () => {
  const v2 = JSON.parse(readFileSync(resolve(root, 'results/robot-table-v2/summary.json'), 'utf8')) as RobotTableSummary;
  const withTest = (id: string, change: Partial<RobotTableSummary['tests'][number]>): RobotTableSummary => ({ ...v2, tests: v2.tests.map((t) => (t.id === id ? { ...t, ...change } : t)) });

  it('names the dense reward as the reason only for the committed pattern: primary and R6 fail, R5 undecided, all final', () => {
    expect(v2.tests.map((t) => [t.id, t.verdict, t.awaits.length])).toEqual(expect.arrayContaining([['primary', 'fails', 0], ['R5', 'undecided', 0], ['R6', 'fails', 0]]));
    expect(v2Reading(v2)).toMatch(/^WMRL's deficit comes with the progress reward itself/);
  });

  it('says nothing while a verdict it rests on is provisional, or when the verdicts fall otherwise', () => {
    expect(v2Reading(withTest('R6', { awaits: ['robot-paper-progress-only'] }))).toBeNull();
    expect(v2Reading(withTest('R5', { verdict: 'holds' }))).toBeNull();
    expect(v2Reading(withTest('R6', { verdict: 'undecided' }))).toBeNull();
    expect(v2Reading(withTest('primary', { verdict: 'holds' }))).toBeNull();
    expect(v2Reading({ ...v2, tests: v2.tests.filter((t) => t.id !== 'R5') })).toBeNull();
  });
});
