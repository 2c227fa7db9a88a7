// The README quotes figures the page prints. Both must come from the committed data: the Overview's
// from public/models/manifest.json (model-figures.ts), #/paper section 6's from the experiment summary
// the page shows first (defaultEntry over results/: main-v3, decided by its plan, so its rows, tests and
// progress are read from summary.json's presets, mainTable and mainTableProgress through planView). A
// rerun that changes a figure fails here until the README is mended.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { policyFigures, worldModelFigures, type ModelsManifest } from '../../../src/ui/components/model-figures.ts';
import { defaultEntry, finishedOfPlanned, formatInterval, formatSigned, planView, type ExperimentSummary, type ResultsIndex } from '../../../src/ui/companion/our-results.ts';
import { PAPER_COUNTERPART } from '../../../src/ui/companion/paper-results.ts';
import { runScale } from '../../../src/ui/companion/side-by-side.ts';
import { LARGER_SFT_PRESET } from '../../../src/experiments/claims.ts';
import type { MeanInterval } from '../../../src/experiments/interval.ts';
import { breakEvenRuns, formatP, seedSpan, WORLD_MODEL_EXECUTIONS } from '../../../src/experiments/main-table.ts';
import { CONTROLS_EVAL_EVERY, gapSlopes } from '../../../src/experiments/controls-table.ts';
import { METRICS, pairedComparison, type MetricKey } from '../../../src/experiments/aggregate.ts';
import { tInterval } from '../../../src/experiments/interval.ts';
import { decidedDigits } from '../../../src/experiments/report.ts';
import { SFT_PRESET, type RunResult } from '../../../src/experiments/run-result.ts';
import type { RobotTableSummary } from '../../../src/experiments/robot-table.ts';

const root = resolve(import.meta.dirname, '../../..');
// one line per sentence fragment: the README wraps its prose anywhere
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const prose = readme.replace(/\s+/g, ' ');
const manifest = JSON.parse(readFileSync(resolve(root, 'public/models/manifest.json'), 'utf8')) as ModelsManifest;

/** The README's capture groups for `re`; fails with the pattern when the sentence is gone. */
function quoted(re: RegExp): string[] {
  const m = prose.match(re);
  expect(m, `README.md no longer says ${re}`).not.toBeNull();
  return m!.slice(1);
}

/** The index the build publishes (scripts/vendor-assets.mjs publishResults), and the summary the page shows first. */
function shownSummary(): { name: string; summary: ExperimentSummary } {
  const dir = resolve(root, 'results');
  const names = readdirSync(dir).filter((n) => existsSync(resolve(dir, n, 'summary.json'))).sort();
  const index: ResultsIndex = { format: 'wmrl-results-index', version: 1, results: names.map((name) => ({ name, file: `${name}.json`, command: '', presets: [] })) };
  const entry = defaultEntry(index);
  expect(entry).not.toBeNull();
  return { name: entry!.name, summary: JSON.parse(readFileSync(resolve(dir, entry!.name, 'summary.json'), 'utf8')) as ExperimentSummary };
}

/** The shown table's run files, with the larger SFT policy's rows brought in as sft-larger (as --larger-sft does). */
function shownRuns(name: string): RunResult[] {
  const read = (dir: string) => readdirSync(resolve(root, dir)).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(resolve(root, dir, f), 'utf8')) as RunResult);
  const larger = read('results/claim4-medium-v3/runs').filter((r) => r.preset === SFT_PRESET).map((r) => ({ ...r, preset: LARGER_SFT_PRESET }));
  return [...read(`results/${name}/runs`), ...larger];
}

// The README's row labels, as the plan's presets.
const README_ROWS: Record<string, string> = {
  'SFT policy (no RL)': SFT_PRESET,
  'all-real GRPO': 'paper-grpo-all-real',
  'world model only': 'paper-world-model-only',
  'ablation: neither correction': 'paper-ablation-neither',
  'ablation: denoising only': 'paper-ablation-denoise-only',
  'ablation: debiasing only': 'paper-ablation-debias-only',
  WMRL: 'paper-wmrl',
  'WMRL + free verifier (ours)': 'wmrl-static',
  'larger SFT policy, 3.03x (no RL)': LARGER_SFT_PRESET,
};

/** A held-out cell at the summary's precision; a dash where the row has no such figure (no run, or no checkpoints). */
const cell = (m: MeanInterval | undefined, key: MetricKey): string => (m ? formatInterval(m, METRICS.find((x) => x.key === key)!.digits) : '—');

describe('the figures the README quotes are the ones the page prints from the committed data', () => {
  it("the Overview's policy figures (public/models/manifest.json)", () => {
    const p = policyFigures(manifest.figures ?? {})!;
    expect(p).not.toBeNull();
    const [tasks, perTask, temperature, run, wrongType, k, avg] = quoted(
      /On the (\d+) held-out tasks \((\d+) programs each, temperature ([\d.]+), run in the sandbox\) (\d+%) of its programs run, (\S+) uses a model of the wrong task type, and held-out avg@(\d+) is ([\d.]+)/,
    );
    expect({ tasks, perTask, temperature, run, wrongType, k, avg }).toEqual({
      tasks: p.tasks, perTask: String(p.perTask), temperature: String(p.temperature), run: p.run, wrongType: p.wrongType, k: String(p.perTask), avg: p.avgAtK,
    });
  });

  it("the Overview's world-model figures (public/models/manifest.json)", () => {
    const w = worldModelFigures(manifest.figures ?? {})!;
    expect(w).not.toBeNull();
    expect(quoted(/trained on ([\d,]+) distinct executed programs of this policy/)[0]).toBe(w.trainPrograms);
    expect(quoted(/and on ([\d,]+) programs broken on purpose/)[0]).toBe(w.mutants);
    const [programs, failed, tasks] = quoted(/on the same held-out programs \((\d+) distinct, (\d+) failed, (\d+) tasks/);
    expect({ programs, failed, tasks }).toEqual({ programs: w.programs, failed: w.failed, tasks: w.tasks });
    expect(quoted(/tells running from failing programs with AUC ([\d.]+) /)[0]).toBe(w.auc);
  });

  it("section 6's main table: every row's seeds, held-out cells and the paper's column (the summary the page shows first)", () => {
    const { name, summary } = shownSummary();
    expect(quoted(/The main table \(\[docs\/results\.md\]\(docs\/results\.md\), `results\/([\w.-]+)`\)/)[0]).toBe(name);
    expect(planView(summary), `results/${name} is decided by its plan`).not.toBeNull();
    const lines = readme.split('\n');
    const start = lines.findIndex((l) => l.startsWith('| run | seeds |'));
    expect(start, "README's main table").toBeGreaterThanOrEqual(0);
    const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
    const seen: string[] = [];
    for (const line of lines.slice(start + 2, end)) {
      const [label, seeds, checkpointMean, heldOut, paper] = line.split('|').slice(1, -1).map((c) => c.trim());
      const preset = README_ROWS[label];
      expect(preset, `README row '${label}' names no preset`).toBeDefined();
      const row = summary.mainTableProgress?.find((r) => r.preset === preset);
      expect(row, `the plan has no row ${preset}`).toBeDefined();
      expect(seeds, `seeds of ${label}`).toBe(finishedOfPlanned(row!));
      // a row with no finished seed is in the plan but not yet in the summary's presets
      const metrics = summary.presets.find((p) => p.preset === preset)?.metrics ?? {};
      expect(checkpointMean, `checkpoint mean of ${label}`).toBe(cell(metrics.heldOutCheckpointMean, 'heldOutCheckpointMean'));
      expect(heldOut, `held-out after the last step of ${label}`).toBe(cell(metrics.heldOut, 'heldOut'));
      const theirs = PAPER_COUNTERPART[preset];
      expect(paper, `the paper's column of ${label}`).toBe(theirs ? theirs.mle.toFixed(1) : '—');
      seen.push(preset);
    }
    expect(seen.sort()).toEqual(Object.values(README_ROWS).sort());
  });

  it("section 6's caption: the run's scale, endpoint and planned seeds", () => {
    const { summary } = shownSummary();
    const scale = runScale(summary);
    const [steps, groups, perGroup, k] = quoted(/Every row runs (\d+) steps of B (\d+) x n (\d+) and is scored by held-out avg@(\d+) on all \d+ held-out tasks/);
    expect({ steps, groups, perGroup, k }).toEqual({ steps: String(scale.steps), groups: String(scale.groups), perGroup: String(scale.perGroup), k: String(scale.evalK) });
    const planned = (preset: string) => summary.mainTableProgress!.find((r) => r.preset === preset)!.planned;
    const [pair, from, to, block, familyB] = quoted(/The plan gives (\d+) seeds \((\d+) to (\d+)\) to the primary pair, SFT and the larger SFT policy, (\d+) to the rest of the authors' block and (\d+) to family B/);
    const primary = planView(summary)!.primary;
    for (const p of [primary.a, primary.b, SFT_PRESET, LARGER_SFT_PRESET]) {
      expect(seedSpan(planned(p)), p).toBe(`${from}-${to}`);
      expect(planned(p).length, p).toBe(Number(pair));
    }
    expect(planned('paper-world-model-only').length).toBe(Number(block));
    expect(planned('wmrl-static').length).toBe(Number(familyB));
  });

  it('section 6: the primary test, what it can detect, and the compute ratio of A1', () => {
    const { summary } = shownSummary();
    const plan = planView(summary)!;
    const [finality, interval, seeds, verdict, finalityAgain] = quoted(
      /The primary test is (\w+): WMRL is not worse than all-real GRPO by 5 points\.\*\* WMRL minus all-real GRPO, held-out averaged over the checkpoints and paired by seed, is (\S+ \[[^\]]+\]) over (\d+) seeds; [^*]+\*\*(\w+)\*\* \((\w+):/,
    );
    const final = plan.primaryAwaits.length === 0 ? 'final' : 'provisional';
    expect({ finality, interval, seeds, verdict, finalityAgain }).toEqual({
      finality: final, interval: formatInterval(plan.primary.comparison.interval, decidedDigits(plan.primary.metric)),
      seeds: String(plan.primary.comparison.seeds.length), verdict: plan.primary.verdict, finalityAgain: final,
    });
    const [measured, sd, pilot] = quoted(/detects a true difference of about ([\d.]+) points at the spread measured \(SD ([\d.]+)\), ([\d.]+) at the pilot's/);
    expect({ measured, sd, pilot }).toEqual({ measured: plan.detectable.atMeasuredSd?.toFixed(1), sd: plan.detectable.measuredSd?.toFixed(1), pilot: plan.detectable.atPilotSd.toFixed(1) });

    const a1 = plan.tests.find((t) => t.id === 'A1')!;
    const [ratio, ratioInterval, holm, a1Verdict] = quoted(/All-real GRPO used ([\d.]+)x (\[[^\]]+\]) WMRL's training busy time \(the paper: about 3x\), Holm p ([^,]+), (\w+)\./);
    expect({ ratio: `${ratio} ${ratioInterval}`, holm, a1Verdict }).toEqual({ ratio: formatInterval(a1.comparison.interval, decidedDigits(a1.metric)), holm: formatP(a1.pHolm), a1Verdict: a1.verdict });
  });

  it("section 6: the world model's build priced in runs: the break-even, from the summary as the page finds it and from the run files", () => {
    const { name, summary } = shownSummary();
    const plan = planView(summary)!;
    const [executions, training, interval, low, high] = quoted(
      /The world model's own build has a price too: ([\d,]+) executions, each priced at that seed's all-real cost per execution, and (\d+) s of training\. WMRL plus its share of the build costs less busy time than all-real GRPO only once the build is shared over more than (\S+ \[[^\]]+\]) runs \(per seed ([\d.]+) to ([\d.]+)\)/,
    );
    // the world model's training seconds, as the experiment CLI reads them (the manifest's stage seconds)
    const trainingSeconds = (JSON.parse(readFileSync(resolve(root, 'public/models/manifest.json'), 'utf8')) as { figures: { stageSeconds: { wm: number } } }).figures.stageSeconds.wm;
    const b = plan.breakEven!;
    expect({ executions, training, interval, low, high }).toEqual({
      executions: WORLD_MODEL_EXECUTIONS.toLocaleString('en-US'), training: trainingSeconds.toFixed(0), interval: formatInterval(b.interval, 2),
      low: Math.min(...b.perSeed).toFixed(2), high: Math.max(...b.perSeed).toFixed(2),
    });
    // the run files give the same figures seed by seed
    const fromRuns = breakEvenRuns(shownRuns(name), { executions: WORLD_MODEL_EXECUTIONS, trainingSeconds });
    expect(fromRuns.seeds).toEqual(b.seeds);
    fromRuns.perSeed.forEach((x, i) => expect(x).toBeCloseTo(b.perSeed[i], 6));
  });

  it("section 6: the primary gap's trend along training (the summary's curve, and the per-seed slopes from the run files)", () => {
    const { name, summary } = shownSummary();
    const plan = planView(summary)!;
    const t = plan.gapTrend!;
    const [gaps, steps, slope, grpo, wmrl] = quoted(
      /Paired by seed, WMRL minus all-real GRPO is ((?:[+-][\d.]+(?:, | and ))+[+-][\d.]+) after steps ((?:\d+(?:, | and ))+\d+); its per-seed slope is (\S+ \[[^\]]+\]) points per 5 steps \(found after the fact, not a planned test\)\. All-real GRPO climbs about ([+-][\d.]+) points per 5 steps, WMRL ([+-][\d.]+)\./,
    );
    const list = (xs: string[]) => `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`;
    expect({ gaps, steps, grpo, wmrl }).toEqual({ gaps: list(t.gap.map((x) => formatSigned(x))), steps: list(t.steps.map(String)), grpo: formatSigned(t.slopeB), wmrl: formatSigned(t.slopeA) });
    expect(CONTROLS_EVAL_EVERY).toBe(5);
    // the interval needs each seed's slope: the run files
    const perSeed = gapSlopes(shownRuns(name), plan.primary.a, plan.primary.b);
    expect(perSeed.seeds).toEqual(plan.primary.comparison.seeds);
    expect(slope).toBe(formatInterval(tInterval(perSeed.perSeed), 2));
    expect(tInterval(perSeed.perSeed).mean).toBeCloseTo(t.gapSlope, 9);
  });

  it("section 6: claim 4's comparator is weaker than the small SFT policy (the page's A8 - A6, and the run files)", () => {
    const { name, summary } = shownSummary();
    const plan = planView(summary)!;
    const runs = shownRuns(name);
    const [ratio, tableRatio, diff] = [
      quoted(/the larger SFT policy \(([\d.]+)x the parameters, the same data and SFT steps\) scores below the small one, /)[0],
      quoted(/\| larger SFT policy, ([\d.]+)x \(no RL\) \|/)[0],
      quoted(/scores below the small one, (\S+ \[[^\]]+\]) paired by seed/)[0],
    ];
    const params = (preset: string) => {
      const n = new Set(runs.filter((r) => r.preset === preset).map((r) => r.environment?.policy?.numParameters));
      expect(n.size, preset).toBe(1);
      return [...n][0]!;
    };
    const measured = (params(LARGER_SFT_PRESET) / params(SFT_PRESET)).toFixed(2);
    expect({ ratio, tableRatio }).toEqual({ ratio: measured, tableRatio: measured });
    expect(diff).toBe(formatInterval(plan.largerSft!.interval, 2));
    const direct = pairedComparison(runs, LARGER_SFT_PRESET, SFT_PRESET, 'heldOut', 'difference');
    expect(formatInterval(direct.interval, 2)).toBe(diff);
    expect(direct.interval!.high).toBeLessThan(0);
  });

  it("section 6: claim 1's compute measured alone, from the rerun folder's summary (npm run experiment -- --rerun-of)", () => {
    const { name } = shownSummary();
    // the published folder that reruns the shown one (what the page's computeAlone finds through the index)
    const folders = readdirSync(resolve(root, 'results')).filter((n) => existsSync(resolve(root, 'results', n, 'summary.json')));
    const reruns = folders.map((n) => ({ n, s: JSON.parse(readFileSync(resolve(root, 'results', n, 'summary.json'), 'utf8')) as ExperimentSummary })).filter((x) => x.s.rerunOf?.of === `results/${name}`);
    expect(reruns.length).toBe(1);
    const rerunFolder = reruns[0].n;
    const rerun = reruns[0].s.rerunOf!;
    const [folder, seeds, perSeed, ratio, table, compared] = quoted(
      /Measured alone \(`([^`]+)`, seeds (\d+ to \d+) of the pair rerun with nothing else started on the machine\): seed by seed ([\d., ]+); mean ([\d.]+x \[[^\]]+\]), against (\S+ \[[^\]]+\]) for the same seeds in the table; all (\d+) reruns did what their twins did/,
    );
    const c = rerun.compute!;
    expect({ folder, seeds, perSeed, ratio, table, compared: Number(compared) }).toEqual({
      folder: `results/${rerunFolder}`, seeds: `${c.alone.seeds[0]} to ${c.alone.seeds.at(-1)}`, perSeed: c.alone.perSeed.map((x) => x.toFixed(2)).join(', '),
      ratio: `${formatInterval(c.alone.interval, 2).replace(' [', 'x [')}`, table: formatInterval(c.table.interval, 2), compared: rerun.compared,
    });
    expect(rerun.differences).toEqual([]);
  });

  it("section 6: family A's tests line by line, whether they are provisional, and family B's progress", () => {
    const { summary } = shownSummary();
    const plan = planView(summary)!;
    if (plan.familyAAwaits.length === 0) {
      quoted(/Family A, Holm-corrected over the family: every verdict, A1's included, is (final)\./);
    } else {
      const [state, awaited] = quoted(/Family A, Holm-corrected over the family: every verdict, A1's included, is (\w+) until ((?:`[\w-]+`(?:, | and )?)+) reach/);
      expect(state).toBe('provisional');
      expect([...awaited.matchAll(/`([\w-]+)`/g)].map((m) => m[1]).sort()).toEqual([...plan.familyAAwaits].sort());
    }
    for (const t of plan.tests.filter((x) => x.family === 'A' && x.id !== 'A1')) {
      const [interval, holm, verdict] = quoted(new RegExp(`- ${t.id}, [^:]+: (\\S+(?: \\[[^\\]]+\\])?), Holm p ([^,]+), ([\\w ]+)\\.`));
      expect({ interval, holm, verdict }, t.id).toEqual({ interval: formatInterval(t.comparison.interval, decidedDigits(t.metric)), holm: formatP(t.pHolm), verdict: t.verdict });
    }
    const familyB = plan.progress.filter((r) => plan.tests.some((t) => t.family === 'B' && t.a === r.preset));
    const sum = (k: 'done' | 'planned') => familyB.reduce((a, r) => a + r[k].length, 0);
    if (sum('done') < sum('planned')) {
      const [done, planned] = quoted(/Family B \([^)]+\) is still running: (\d+) of its (\d+) runs are done/);
      expect({ done: Number(done), planned: Number(planned) }).toEqual({ done: sum('done'), planned: sum('planned') });
    } else {
      // complete: every test of the family on its own line, as summary.md has it
      const [runs] = quoted(/Family B \([^)]+\) is complete \((\d+) runs\)/);
      expect(Number(runs)).toBe(sum('planned'));
      for (const t of plan.tests.filter((x) => x.family === 'B')) {
        const [interval, holm] = quoted(new RegExp(`- ${t.id}, \`${t.a}\`[^:]*: (\\S+ \\[[^\\]]+\\]), Holm p (< 0\\.001|\\d\\.\\d{3})\\b`));
        expect({ interval, holm }, t.id).toEqual({ interval: formatInterval(t.comparison.interval, decidedDigits(t.metric)), holm: formatP(t.pHolm) });
      }
    }
  });

  it("the robot table's rows and primary test (results/robot-table/summary.json, companion section 7)", () => {
    const t = JSON.parse(readFileSync(resolve(root, 'results/robot-table/summary.json'), 'utf8')) as RobotTableSummary;
    const row = (preset: string) => formatInterval(t.rows.find((r) => r.preset === preset)!.heldOut, 1);
    const [sft, grpo, wmrl] = quoted(/Ours: SFT (\S+ \[[^\]]+\]), GRPO on the sparse success (\S+ \[[^\]]+\]), WMRL (\S+ \[[^\]]+\])/);
    expect({ sft, grpo, wmrl }).toEqual({ sft: row('robot-sft'), grpo: row('robot-grpo-sparse'), wmrl: row('robot-wmrl') });
    const primary = t.tests.find((x) => x.id === 'primary')!;
    const [diff, verdict] = quoted(/WMRL minus GRPO is (\S+ \[[^\]]+\]), (\w+)/);
    expect({ diff, verdict }).toEqual({ diff: formatInterval(primary.comparison.interval, 1), verdict: primary.verdict });
    const [rows, seeds] = quoted(/\(`results\/robot-table`, (\d+) rows x (\d+) seeds/);
    expect(Number(rows)).toBe(t.rows.length);
    for (const r of t.rows) expect(r.seeds.length, r.preset).toBe(Number(seeds));
  });
});
