import { describe, expect, it } from 'vitest';
import { runScale, sideBySide } from '../../../src/ui/companion/side-by-side.ts';
import { PAPER_MAIN_TABLE } from '../../../src/ui/companion/paper-results.ts';
import type { ExperimentSummary } from '../../../src/ui/companion/our-results.ts';
import { tInterval } from '../../../src/experiments/interval.ts';

const summary = (command: string, presets: [string, number[]][]): ExperimentSummary => ({
  format: 'wmrl-experiment-summary', version: 1, command,
  presets: presets.map(([preset, seeds]) => ({ preset, kind: 'train', seeds, failedSeeds: [], metrics: { heldOut: tInterval(seeds.map((s) => 40 + s)) } })),
});

describe("section 6's table: ours beside the paper's", () => {
  it('pairs each preset with the paper row it reproduces, keeps ours-only rows, then lists the paper-only rows', () => {
    const rows = sideBySide(summary('npm run experiment', [['sft', [1, 2]], ['wmrl', [1, 2]], ['grpo-all-real', [1, 2]], ['wmrl-static', [1, 2]], ['ablation-neither', [1, 2]]]));
    const by = (p: string) => rows.find((r) => r.ours?.preset === p)!;
    expect(by('wmrl').paper?.method).toBe('4B WMRL');
    expect(by('grpo-all-real').paper?.gpuHours).toBe(883);
    expect(by('ablation-neither').paper).toMatchObject({ mle: 13.5, dsbench: 25.3, gpuHours: null });
    expect(by('sft').paper).toBeNull();
    expect(by('wmrl-static').paper).toBeNull();
    // every main-table row appears once: matched to a preset or on its own
    const paperMethods = rows.map((r) => r.paper?.method).filter((m) => m && !m.includes('ablation'));
    expect(new Set(paperMethods).size).toBe(paperMethods.length);
    const theirs = rows.filter((r) => !r.ours).map((r) => r.paper!.method);
    expect(theirs).toEqual(['9B GRPO', '9B WMRL', '48B open-weight agent (no RL)', '120B open-weight agent (no RL)']);
    expect(theirs.length + 3).toBe(PAPER_MAIN_TABLE.length); // 4B GRPO, world model only, WMRL are matched
  });

  it("reads the run's scale from its command and its seeds from its rows", () => {
    const s = runScale(summary('npm run experiment -- --presets wmrl --seeds 1,2,3 --steps 20 --B 8 --n 4 --eval-k 8', [['wmrl', [3, 1]], ['sft', [2]]]));
    expect(s).toEqual({ steps: 20, groups: 8, perGroup: 4, evalK: 8, seeds: [1, 2, 3] });
    expect(runScale(summary('npm run experiment -- --presets wmrl', [['wmrl', [1]]]))).toMatchObject({ steps: null, groups: null, evalK: null });
  });
});
