// Runs every reference program on a few real data sets (seeded split) through the trusted Node
// runner and prints, per data set, each family's best score, the winner and the run times.
// Long: not part of the test layers. Run: npm run study:toolkit -- [ids...]

import { TrustedPyodideRunner } from '../src/sandbox-pyodide/node-runner.ts';
import { referencePrograms } from '../src/sandbox-pyodide/reference-programs.ts';
import { parseCsvRecords } from '../src/tasks/csv.ts';
import { computeMetric, METRIC_DIRECTION } from '../src/tasks/metrics.ts';
import type { MetricName } from '../src/tasks/task-types.ts';
import { splitDataset } from '../tests/unit/toolkit/real-data.ts';

const DEFAULT = ['vega_cars', 'sklearn_diabetes', 'modeldata_concrete', 'sklearn_breast_cancer', 'mlbench_Ionosphere', 'vega_penguins', 'mlbench_Vehicle'];

const runner = await TrustedPyodideRunner.create();
const ids = process.argv.slice(2).length ? process.argv.slice(2) : DEFAULT;
for (const id of ids) {
  const task = splitDataset(id);
  const { entry } = task;
  const metric = entry.metric as MetricName;
  const sign = METRIC_DIRECTION[metric] === 'higher' ? 1 : -1;
  const programs = referencePrograms(entry.task, entry.metric);
  const negative = entry.task === 'binary' ? [...new Set(task.labels)].find((l) => l !== entry.positive) ?? 'other' : undefined;
  const byFamily = new Map<string, { score: number; id: string }>();
  const rows: { id: string; family: string; score: number; seconds: number }[] = [];
  let failures = 0;
  const t0 = Date.now();
  for (const p of programs) {
    const r = await runner.run(p.source, task.trainCsv, task.testCsv, task.taskJson, 120_000);
    if (r.status !== 'ok' || !r.predictionsCsv) {
      failures++;
      console.log(`  FAIL ${p.id}: ${(r.traceback ?? '').split('\n').slice(-3).join(' | ')}`);
      continue;
    }
    const values = parseCsvRecords(r.predictionsCsv).slice(1).filter((x) => x.length === 1 && x[0] !== '').map((x) => x[0]);
    const pred = entry.task === 'multiclass' ? { kind: 'label' as const, values } : { kind: 'numeric' as const, values: values.map(Number) };
    const score = computeMetric(metric, entry.task, task.labels, pred, { positive: entry.positive, negative });
    rows.push({ id: p.id, family: p.family, score, seconds: r.seconds });
    const cur = byFamily.get(p.family);
    if (!cur || sign * score > sign * cur.score) byFamily.set(p.family, { score, id: p.id });
  }
  const fams = [...byFamily.entries()].sort((a, b) => sign * (b[1].score - a[1].score));
  const secs = rows.map((r) => r.seconds).sort((a, b) => a - b);
  const scores = rows.map((r) => r.score).sort((a, b) => a - b);
  console.log(`\n## ${id} (${entry.task}, ${metric}); ${programs.length} programs, ${failures} failed, total ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  console.log(`run time s: median ${secs[secs.length >> 1].toFixed(2)}, max ${secs[secs.length - 1].toFixed(2)} (${rows.find((r) => r.seconds === secs[secs.length - 1])?.id})`);
  console.log(`score range: ${scores[0].toFixed(4)} .. ${scores[scores.length - 1].toFixed(4)}`);
  for (const [fam, best] of fams) console.log(`  ${fam.padEnd(12)} ${best.score.toFixed(4)}  ${best.id}`);
}
