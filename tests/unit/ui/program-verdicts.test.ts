// The groups table's verdicts: the ladder's reading of s beside the compile check, from the gate's
// record where a gate ran and from the display check elsewhere.
import { describe, expect, it } from 'vitest';
import { fitLadderReading, type LadderRow } from '../../../src/pipeline/ladder-reading.ts';
import type { GroupRecord } from '../../../src/training/trainer.ts';
import { programVerdicts } from '../../../src/ui/train/program-verdicts.ts';

// Low scores failed at run time, high ones ran and placed high: the reading says so.
const rows: LadderRow[] = [
  ...Array.from({ length: 10 }, (_, i) => ({ score: 0.05 + i * 0.01, status: 'runtime error' as const, reward: 0.1, compiles: true, blank: false })),
  ...Array.from({ length: 10 }, (_, i) => ({ score: 0.8 + i * 0.01, status: 'valid' as const, reward: 0.95, compiles: true, blank: false })),
];

function group(over: Partial<GroupRecord>): GroupRecord {
  return {
    taskId: 't', anchor: false, programs: ['a = 1', 'b(', 'c = 2'], programTokens: [3, 2, 3], stopped: [true, true, true],
    wmScores: [0.85, 0.07, 0.9], wmRewards: null, realScores: null, statuses: null, rewards: [0, 0, 0], advantages: [0, 0, 0], coefficients: [0, 0, 0],
    ...over,
  };
}

describe('program verdicts in the groups table', () => {
  it('reads s onto the ladder and leaves compile unknown when nothing checked', () => {
    const v = programVerdicts(group({}), fitLadderReading(rows, { bins: 2 }), null);
    expect(v.map((x) => x.predicted)).toEqual(['valid · high', 'runtime error', 'valid · high']);
    expect(v.every((x) => x.compile === null)).toBe(true);
  });

  it("under a gate: the gate's verdict is the compile column and a stopped program is not read", () => {
    const g = group({ wmScores: [0.85, 0, 0.9], gate: [null, 'does not compile: SyntaxError (line 1)', "Model(...) takes no keyword 'x'"] });
    const v = programVerdicts(g, fitLadderReading(rows, { bins: 2 }), null);
    expect(v[0]).toEqual({ predicted: 'valid · high', compile: 'compiles' });
    expect(v[1]).toEqual({ predicted: 'not scored (gate)', compile: 'does not compile: SyntaxError (line 1)' });
    // the static verifier's keyword check stops programs that compile: the column says both
    expect(v[2]).toEqual({ predicted: 'not scored (gate)', compile: "compiles; the verifier stopped it: Model(...) takes no keyword 'x'" });
  });

  it('the display check fills the column without a gate, and a gated reading reads a failure as a syntax error', () => {
    const checked = [null, 'does not compile: SyntaxError (line 1)', null];
    const plain = programVerdicts(group({}), fitLadderReading(rows, { bins: 2 }), checked);
    expect(plain.map((x) => x.compile)).toEqual(['compiles', 'does not compile: SyntaxError (line 1)', 'compiles']);
    const gated = programVerdicts(group({ wmScores: [0.85, 0.95, 0.9] }), fitLadderReading(rows, { bins: 2, gate: true }), checked);
    expect(gated[1].predicted).toBe('syntax error');
    // the world model alone, ungated, reads the same score as valid: what compile() knows and it does not
    expect(programVerdicts(group({ wmScores: [0.85, 0.95, 0.9] }), fitLadderReading(rows, { bins: 2 }), checked)[1].predicted).toBe('valid · high');
  });

  it('no score or no reading: no prediction', () => {
    expect(programVerdicts(group({ wmScores: null }), fitLadderReading(rows, { bins: 2 }), null)[0].predicted).toBeNull();
    expect(programVerdicts(group({}), null, null)[0].predicted).toBeNull();
  });
});
