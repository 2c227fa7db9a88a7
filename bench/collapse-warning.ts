// How well does the Train view's collapse warning (src/ui/train/collapse-warning.ts) name the runs that
// collapsed? Reads every committed coding training run file under results/ and counts, per experiment, the
// runs that collapsed on held-out (the experiment report's rule, fellAtCheckpoint: fewer than half the
// held-out programs ran at some checkpoint; a run from before checkpoints, at its final evaluation) and the
// runs the warning fires on (its last COLLAPSE_STEPS steps with executions executed no program that ran). Reruns made to time compute and
// load checks repeat runs counted elsewhere and are left out. Reads files only; nothing runs.
//   npx tsx bench/collapse-warning.ts [--results results] [--steps 3]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { COLLAPSED_VALID_PERCENT, fellAtCheckpoint } from '../src/experiments/report.ts';
import { COLLAPSE_STEPS, collapseWarning } from '../src/ui/train/collapse-warning.ts';

const REPEATS = new Set(['main-v2-compute', 'main-v3-compute', 'load-check', 'work-rule-2-load-check']);
const { values } = parseArgs({ options: { results: { type: 'string', default: 'results' }, steps: { type: 'string', default: String(COLLAPSE_STEPS) } } });
const minSteps = Number(values.steps);

interface Row { runs: number; collapsed: number; fired: number; firedCollapsed: number; missed: string[]; falseAlarms: string[] }
const rows = new Map<string, Row>();

for (const experiment of readdirSync(values.results!).sort()) {
  const dir = join(values.results!, experiment, 'runs');
  if (REPEATS.has(experiment) || !existsSync(dir)) continue;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const run = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    // coding training runs only: the SFT rows evaluate without training, robot runs have no program groups
    if (run.kind !== 'train' || !Array.isArray(run.records) || run.records[0]?.groups === undefined) continue;
    const row = rows.get(experiment) ?? { runs: 0, collapsed: 0, fired: 0, firedCollapsed: 0, missed: [], falseAlarms: [] };
    rows.set(experiment, row);
    // the report's rule; the first tables' runs have no checkpoints, so their final evaluation stands in
    const collapsed = run.curve?.length ? fellAtCheckpoint(run) : 100 * (run.evaluation?.validRunRate ?? 1) < COLLAPSED_VALID_PERCENT;
    const fired = collapseWarning(run.records, minSteps) !== null;
    const name = file.replace(/\.json$/, '');
    row.runs++;
    if (collapsed) row.collapsed++;
    if (fired) row.fired++;
    if (fired && collapsed) row.firedCollapsed++;
    if (collapsed && !fired) row.missed.push(name);
    if (fired && !collapsed) row.falseAlarms.push(name);
  }
}

const total = [...rows.values()].reduce((a, r) => ({ runs: a.runs + r.runs, collapsed: a.collapsed + r.collapsed, fired: a.fired + r.fired, firedCollapsed: a.firedCollapsed + r.firedCollapsed }), { runs: 0, collapsed: 0, fired: 0, firedCollapsed: 0 });
console.log(`collapse warning after ${minSteps} steps without a running real program, on the committed coding training runs of ${values.results}/ (${[...REPEATS].join(', ')} left out)\n`);
console.log('| experiment | runs | collapsed | warning fired | of which collapsed | collapsed, no warning |');
console.log('|---|---|---|---|---|---|');
for (const [experiment, r] of rows) console.log(`| ${experiment} | ${r.runs} | ${r.collapsed} | ${r.fired} | ${r.firedCollapsed} | ${r.missed.length} |`);
console.log(`| all | ${total.runs} | ${total.collapsed} | ${total.fired} | ${total.firedCollapsed} | ${total.collapsed - total.firedCollapsed} |`);
console.log('\ncollapsed without a warning:');
for (const [experiment, r] of rows) if (r.missed.length) console.log(`  ${experiment}: ${r.missed.join(', ')}`);
const falseAlarms = [...rows].flatMap(([experiment, r]) => r.falseAlarms.map((n) => `${experiment}/${n}`));
console.log(`\nwarning fired on a run that did not collapse: ${falseAlarms.join(', ') || 'none'}`);
