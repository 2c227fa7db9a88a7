// The line a coding run prints at its end about keeping its run so far: what resuming costs a run.
import { describe, expect, it } from 'vitest';
import { savesLine } from '../../../src/cli/experiment-page.ts';

const save = (checkpointMs: number, textMs: number, handOverMs: number, fileMs: number, chars: number) => ({ checkpointMs, textMs, handOverMs, fileMs, chars });

describe('savesLine', () => {
  it('says nothing for a run that kept nothing (an SFT evaluation, a run without a side file)', () => {
    expect(savesLine('sft seed 3', [])).toBeNull();
  });

  it('gives the count, the median save and its parts, the longest, the sum and the median size', () => {
    const line = savesLine('paper-wmrl seed 3', [save(100, 200, 300, 50, 15_000_000), save(100, 100, 300, 70, 15_200_000), save(1_000, 400, 600, 90, 15_100_000)]);
    expect(line).toBe('paper-wmrl seed 3: kept the run so far 3 time(s), median 0.60 s a save (checkpoint 0.10, text 0.20, handing over 0.30 of which the file 0.07), max 2.00 s, 3.1 s in all; 15.1 MB each');
  });
});
