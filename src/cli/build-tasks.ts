// Builds the task suite from the data sets in data/datasets: for each manifest entry, a seeded split into
// public/tasks/<id>/{train.csv,test.csv,labels.json,task.json}, an index.json for the registry,
// and the data's PROVENANCE.md copied next to it. Deterministic: rerunning gives identical files.
// Usage: npm run build:tasks -- [--datasets <dir>] [--out <dir>] (--help).

import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCsv } from '../tasks/csv.ts';
import { exitOnInputError, parseFlags } from './cli-input.ts';
import { suiteSpec, type ManifestEntry } from '../tasks/suite-spec.ts';
import { buildTask } from '../tasks/task-builder.ts';
import { toIndexEntry, type TaskIndex } from '../tasks/task-index.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const USAGE = `usage: npm run build:tasks -- [options]
  --datasets DIR   the data sets and their manifest.json (default data/datasets)
  --out DIR        where the tasks are written (default public/tasks)
  --help           this list`;

exitOnInputError('build-tasks');
const { values } = parseFlags({ options: { datasets: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean' } } });
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const datasetsDir = resolve(values.datasets ?? join(repoRoot, 'data', 'datasets'));
const outDir = resolve(values.out ?? join(repoRoot, 'public', 'tasks'));

const manifest = JSON.parse(readFileSync(join(datasetsDir, 'manifest.json'), 'utf8')) as ManifestEntry[];
mkdirSync(outDir, { recursive: true });
const index: TaskIndex = { version: 1, tasks: [] };
for (const entry of manifest) {
  const t0 = Date.now();
  const table = parseCsv(readFileSync(join(datasetsDir, entry.file), 'utf8'));
  const task = buildTask(table, suiteSpec(entry));
  const dir = join(outDir, entry.id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'train.csv'), task.trainCsv);
  writeFileSync(join(dir, 'test.csv'), task.testCsv);
  writeFileSync(join(dir, 'labels.json'), JSON.stringify(task.labels) + '\n');
  writeFileSync(join(dir, 'task.json'), JSON.stringify(task.meta, null, 2) + '\n');
  index.tasks.push(toIndexEntry(task.meta));
  const m = task.meta;
  console.log(
    `${m.id.padEnd(26)} ${m.split.padEnd(7)} ${m.role.padEnd(6)} ${m.type.padEnd(10)} ${m.metric.padEnd(8)} ` +
      `train ${String(m.nTrain).padStart(4)} test ${String(m.nTest).padStart(4)} features ${m.columns.length} ` +
      `(${Date.now() - t0} ms) card ${m.card.length} chars`,
  );
}
index.tasks.sort((a, b) => (a.split === b.split ? a.id.localeCompare(b.id) : a.split === 'train' ? -1 : 1));
writeFileSync(join(outDir, 'index.json'), JSON.stringify(index, null, 2) + '\n');
copyFileSync(join(datasetsDir, 'PROVENANCE.md'), join(outDir, 'PROVENANCE.md'));
copyFileSync(join(datasetsDir, 'manifest.json'), join(outDir, 'source-manifest.json'));
console.log(`wrote ${index.tasks.length} tasks to ${outDir}`);
