import { describe, expect, it } from 'vitest';
import { formatInterval, ourRows, type ExperimentSummary } from '../../../src/ui/companion/our-results';
import { tInterval } from '../../../src/experiments/interval';

describe("the companion's table of our results", () => {
  it('shows mean and interval, or the mean alone for one seed', () => {
    expect(formatInterval(tInterval([10, 20, 30]))).toMatch(/^20\.0 \[-4\.8, 44\.8\]$/);
    expect(formatInterval(tInterval([7]))).toBe('7.0');
    expect(formatInterval(null)).toBe('–');
  });

  it('keeps the summary order and reads the metrics it has', () => {
    const summary: ExperimentSummary = {
      format: 'wmrl-experiment-summary', version: 1, command: 'npm run experiment',
      presets: [
        { preset: 'sft', kind: 'sft', seeds: [1, 2], failedSeeds: [], metrics: { heldOut: tInterval([10, 12]) } },
        { preset: 'wmrl', kind: 'train', seeds: [1, 2], failedSeeds: [], metrics: { heldOut: tInterval([14, 16]), busyTotal: tInterval([30, 34]), executions: tInterval([16, 16]) } },
      ],
    };
    const rows = ourRows(summary);
    expect(rows.map((r) => r.preset)).toEqual(['sft', 'wmrl']);
    expect(rows[0].busyTotal).toBeNull();
    expect(rows[1].heldOut?.mean).toBe(15);
    expect(rows[1].seeds).toBe(2);
  });
});
