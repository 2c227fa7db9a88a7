// The README quotes figures the page prints. Both must come from the committed data: the Overview's
// from public/models/manifest.json (model-figures.ts), #/paper section 6's from the experiment summary
// the page shows first (defaultEntry over results/). A rerun that changes a figure fails here until
// the README is mended.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { policyFigures, worldModelFigures, type ModelsManifest } from '../../../src/ui/components/model-figures';
import { defaultEntry, formatInterval, type ExperimentSummary, type ResultsIndex } from '../../../src/ui/companion/our-results';
import { PAPER_COUNTERPART } from '../../../src/ui/companion/paper-results';
import { runScale, sideBySide } from '../../../src/ui/companion/side-by-side';
import type { RobotTableSummary } from '../../../src/experiments/robot-table';

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

// The README's row labels, as the page's presets.
const README_ROWS: Record<string, string> = {
  'SFT policy (no RL)': 'sft',
  'all-real GRPO': 'grpo-all-real',
  'world model only': 'world-model-only',
  WMRL: 'wmrl',
  'WMRL + free verifier (ours)': 'wmrl-static',
  'larger SFT policy, 3.1x (no RL)': 'sft-larger',
};

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

  it("section 6's main table: held-out per row and the paper's column (the summary the page shows first)", () => {
    const { name, summary } = shownSummary();
    expect(quoted(/The main table \(\[docs\/results\.md\]\(docs\/results\.md\), `results\/([\w.-]+)`\)/)[0]).toBe(name);
    const lines = readme.split('\n');
    const start = lines.findIndex((l) => l.startsWith('| run | held-out |'));
    expect(start, "README's main table").toBeGreaterThanOrEqual(0);
    const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
    const body = lines.slice(start + 2, end);
    const rows = sideBySide(summary);
    const seen: string[] = [];
    for (const line of body) {
      const [label, heldOut, , paper] = line.split('|').slice(1, -1).map((c) => c.trim());
      const preset = README_ROWS[label];
      expect(preset, `README row '${label}' names no preset`).toBeDefined();
      const row = rows.find((r) => r.ours?.preset === preset);
      expect(row, `the summary has no row ${preset}`).toBeDefined();
      expect(heldOut, `held-out of ${label}`).toBe(formatInterval(row!.ours!.heldOut));
      const theirs = PAPER_COUNTERPART[preset];
      expect(paper, `the paper's column of ${label}`).toBe(theirs ? theirs.mle.toFixed(1) : '—');
      seen.push(preset);
    }
    expect(seen.sort()).toEqual(Object.values(README_ROWS).sort());
  });

  it("section 6's caption: the run's scale and seeds", () => {
    const { summary } = shownSummary();
    const scale = runScale(summary);
    const [steps, groups, perGroup, k, seeds] = quoted(/was rerun with these models: (\d+) steps, B (\d+) x n (\d+), avg@(\d+) on all \d+ held-out tasks, (\d+) seeds for every row/);
    expect({ steps, groups, perGroup, k, seeds }).toEqual({
      steps: String(scale.steps), groups: String(scale.groups), perGroup: String(scale.perGroup), k: String(scale.evalK), seeds: String(scale.seeds.length),
    });
    for (const p of summary.presets) expect(p.seeds, `${p.preset}: every row has every seed`).toEqual(scale.seeds);
  });

  it('section 6: the compute ratio of claim 1 and the WMRL-GRPO difference of claim 2', () => {
    const { summary } = shownSummary();
    const [ratio, interval] = quoted(/All-real GRPO used ([\d.]+)x (\[[^\]]+\]) WMRL's busy compute/);
    expect(`${ratio} ${interval}`).toBe(formatInterval(summary.claim1BusyRatio!.interval, 1));
    const test = summary.claims?.find((c) => c.id === '2')?.tests.find((t) => t.a === 'wmrl' && t.b === 'grpo-all-real');
    expect(test).toBeDefined();
    expect(quoted(/WMRL is (-?[\d.]+ \[[^\]]+\]) against all-real GRPO/)[0]).toBe(formatInterval(test!.comparison.interval, 1));
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
