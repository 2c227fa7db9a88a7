// npm run compare -- <folder>:<preset> <folder>:<preset> [--metric heldOut] [--ratio] [--json]
// npm run compare -- --anchor-pairs <folder>:<preset> [<folder>:<preset> ...]
// npm run compare -- --same <folder> <folder> [--within]
//
// The third says whether two experiment folders hold runs that did the same thing, every measured
// time aside (run-behaviour.ts): a seeded `npm run experiment -- --quick` before and after a
// refactor must give the same; it exits 1 and names the first differences otherwise. With --within
// the second folder may hold more runs: a rerun of some of a grid's runs (the quiet compute
// accounting) is checked against their twins in the grid.
//
// The second form pools the anchor groups of all the given runs and says how often the world-model
// score orders two programs as their real scores do (all pairs, and failed-vs-valid pairs).
//
// Seed-by-seed comparison of two presets that may come from different experiment folders (e.g. a
// sensitivity run against the main run), with the same Student-t interval as the experiment
// tables. Refuses pairs whose held-out evaluations differ (k, tasks, temperature, token budget).
//
// Every form then lists each run's provenance (commit, dirty or clean, toolkit hash, start and end)
// and warns when the runs compared started from a dirty tree or from different commits.
//
// Exit status: 0 compared (--same: the same), 1 --same found a difference, 2 nothing could be compared
// (a malformed argument, a folder without runs/, a file there that is not a readable run file), so
// a script that checks --same never takes a broken file for a changed behaviour.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { anchorPairAccuracy, METRICS, type MetricKey } from '../experiments/aggregate.ts';
import { compareSides, type ComparisonSide } from '../experiments/cross-compare.ts';
import { formatInterval } from '../experiments/report.ts';
import { formatProvenance, isRunProvenance, provenanceWarnings, type RunProvenance } from '../experiments/provenance.ts';
import { isRunResult, type RunResult } from '../experiments/run-result.ts';
import { behaviourDifferences } from '../experiments/run-behaviour.ts';
import { InputError, parseFlags } from './cli-input.ts';
import { readRunJson } from './run-files.ts';

const USAGE = `usage: npm run compare -- <folder>:<preset> <folder>:<preset> [--metric KEY] [--ratio] [--json]
       npm run compare -- --anchor-pairs <folder>:<preset> [<folder>:<preset> ...]
       npm run compare -- --same <folder> <folder> [--within]
                        (same runs, timings aside? --within: the second may hold more)
  e.g.   npm run compare -- results/sensitivity-kl0.04:wmrl results/main:wmrl
  metrics: ${METRICS.map((m) => m.key).join(', ')} (default heldOut); differences unless --ratio`;

const UNREADABLE = 'runs/ holds only run files, so move it aside to compare the rest';

function side(spec: string): ComparisonSide {
  const at = spec.lastIndexOf(':');
  if (at <= 0) throw new InputError(`${spec}: expected <folder>:<preset>`);
  const folder = spec.slice(0, at);
  const preset = spec.slice(at + 1);
  const dir = resolve(folder, 'runs');
  if (!existsSync(dir)) throw new InputError(`${folder}: no runs/ folder (is it an experiment's --out?)`);
  const runs: RunResult[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json') && !x.endsWith('.failed.json'))) {
    const r = readRunJson(join(dir, f), UNREADABLE);
    if (isRunResult(r) && r.preset === preset && r.status === 'ok') runs.push(r);
  }
  if (runs.length === 0) throw new InputError(`${folder}: no successful runs of ${preset}`);
  return { label: spec, runs };
}

/** Runs whose evaluations do not pair up (k, tasks, temperature, budget) are the user's choice of folders, not a fault here. */
function comparable<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new InputError(e instanceof Error ? e.message : String(e));
  }
}

function main(): void {
  const { values, positionals } = parseFlags({ options: { metric: { type: 'string' }, ratio: { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean' }, 'anchor-pairs': { type: 'boolean' }, same: { type: 'boolean' }, within: { type: 'boolean' } }, allowPositionals: true });
  if (values.same && positionals.length === 2) {
    sameBehaviour(positionals[0], positionals[1], values.within === true);
    return;
  }
  if (values['anchor-pairs'] && positionals.length > 0) {
    const sides = positionals.map(side);
    pooledAnchorPairs(sides);
    printProvenance(sides.flatMap(runsOf));
    return;
  }
  if (values.help || positionals.length !== 2) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const metric = (values.metric ?? 'heldOut') as MetricKey;
  const spec = METRICS.find((m) => m.key === metric);
  if (!spec) throw new InputError(`unknown metric ${metric} (known: ${METRICS.map((m) => m.key).join(', ')})`);
  const sides = [side(positionals[0]), side(positionals[1])];
  const c = comparable(() => compareSides(sides[0], sides[1], metric, values.ratio ? 'ratio' : 'difference'));
  const runs = sides.flatMap(runsOf);
  if (values.json) {
    console.log(JSON.stringify({ ...c, provenance: runs, provenanceWarnings: provenanceWarnings(runs.map((r) => r.provenance)) }, null, 2));
    return;
  }
  const op = c.kind === 'ratio' ? '/' : '-';
  const digits = c.kind === 'ratio' ? 2 : spec.digits;
  console.log(`${c.a} ${op} ${c.b} (${spec.label})`);
  console.log(`per seed: ${c.seeds.map((s, i) => `${s}: ${c.perSeed[i].toFixed(digits)}`).join(', ') || 'no seed has both runs'}`);
  console.log(`mean [95% Student-t interval]: ${formatInterval(c.interval, digits)}`);
  printProvenance(runs);
}

interface LabelledProvenance {
  run: string;
  provenance?: RunProvenance;
}

const runsOf = (s: ComparisonSide): LabelledProvenance[] => s.runs.map((r) => ({ run: `${s.label} seed ${r.seed}`, provenance: r.provenance }));

/** Each run's provenance, then what should make a reader wary: a dirty tree, different commits or toolkits. */
function printProvenance(runs: readonly LabelledProvenance[]): void {
  console.log('provenance:');
  for (const r of runs) console.log(`  ${r.run}: ${formatProvenance(r.provenance)}`);
  for (const w of provenanceWarnings(runs.map((r) => r.provenance))) console.log(`WARNING: ${w}`);
}

function runFiles(folder: string): Map<string, unknown> {
  const dir = resolve(folder, 'runs');
  if (!existsSync(dir)) throw new InputError(`${folder}: no runs/ folder (is it an experiment's --out?)`);
  const files = readdirSync(dir).filter((x) => x.endsWith('.json')).sort();
  return new Map(files.map((f) => [f, readRunJson(join(dir, f), UNREADABLE)]));
}

/** Every run file of a has a twin in b that did the same (timings aside), and none is left over in b unless `within`. */
function sameBehaviour(a: string, b: string, within: boolean): void {
  const ra = runFiles(a);
  const rb = runFiles(b);
  const problems: string[] = [];
  const compared: LabelledProvenance[] = [];
  for (const name of new Set([...ra.keys(), ...(within ? [] : rb.keys())])) {
    if (!ra.has(name) || !rb.has(name)) {
      problems.push(`${name}: only in ${ra.has(name) ? a : b}`);
      continue;
    }
    for (const d of behaviourDifferences(ra.get(name), rb.get(name), 5)) problems.push(`${name}: ${d}`);
    for (const [folder, files] of [[a, ra], [b, rb]] as const) compared.push({ run: `${folder}/runs/${name}`, provenance: provenanceOf(files.get(name), `${folder}/runs/${name}`) });
  }
  if (problems.length > 0) {
    console.log(`different: ${problems.length} difference(s)${problems.length >= 5 ? ' (first ones)' : ''}`);
    for (const p of problems) console.log(`  ${p}`);
    printProvenance(compared);
    process.exit(1);
  }
  console.log(`same: ${ra.size} run file(s) did the same in ${a} and ${b}, timings aside${within && rb.size > ra.size ? ` (${rb.size - ra.size} more in ${b}, not compared)` : ''}`);
  printProvenance(compared);
}

/** A run file's provenance, coding or robot; undefined when it predates provenance. */
function provenanceOf(file: unknown, name: string): RunProvenance | undefined {
  const p = (file as { provenance?: unknown } | null)?.provenance;
  if (p === undefined || isRunProvenance(p)) return p;
  throw new InputError(`${name}: its provenance is not one the runners write (commit, dirty, gitError, toolkitHash, startedAt, finishedAt): ${JSON.stringify(p).slice(0, 200)}`);
}

/** Pooled over every anchor group of the given runs: pairs ordered as y, overall and failed-vs-valid. */
function pooledAnchorPairs(sides: ComparisonSide[]): void {
  for (const failedVsValid of [false, true]) {
    let agree = 0;
    let pairs = 0;
    for (const s of sides) for (const r of s.runs) {
      const a = anchorPairAccuracy(r.records, failedVsValid);
      if (a.pairs === 0) continue;
      agree += a.accuracy * a.pairs;
      pairs += a.pairs;
    }
    const what = failedVsValid ? 'failed-vs-valid pairs where s prefers the valid program' : 'pairs with different y that s orders as y';
    console.log(`${what}: ${pairs === 0 ? 'no pairs' : `${(agree / pairs).toFixed(3)} of ${pairs}`}`);
  }
}

try {
  main();
} catch (e) {
  console.error(`compare: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(e instanceof InputError ? 2 : 1);
}
