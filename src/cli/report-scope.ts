// A report is its folder's: --report-only rewrites summary.md, summary.json and runs.csv from the run
// files its grid names, so a grid that names none of the folder's run files, or leaves some out (a
// mistyped --out, presets or seeds forgotten), would replace the folder's report, and the command
// recorded in it, with a smaller one. Both experiment runners refuse that before writing anything.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Throws `UsageError` unless `out`/runs holds run files and the grid names every one (`named`: file names, failed ones included). */
export function refuseNarrowReport(out: string, named: ReadonlySet<string>, UsageError: new (message: string, showUsage?: boolean) => Error): void {
  const shown = relative(process.cwd(), out) || '.';
  const runsDir = join(out, 'runs');
  const present = existsSync(runsDir) ? readdirSync(runsDir).filter((f) => f.endsWith('.json')) : [];
  const outside = present.filter((f) => !named.has(f));
  if (present.length > 0 && outside.length === 0) return;
  let made = '';
  try {
    const command = (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { command?: unknown }).command;
    if (typeof command === 'string') made = `; its report was written by: ${command} --report-only`;
  } catch {
    // no summary to name: the refusal stands on its own
  }
  const problem = present.length === 0
    ? `${shown} holds no run files (${join(shown, 'runs')} is ${existsSync(runsDir) ? 'empty' : 'missing'}): nothing to report`
    : `this grid leaves out ${outside.length} of the ${present.length} run files in ${shown} (${outside.slice(0, 3).join(', ')}${outside.length > 3 ? ', ...' : ''}), so its report would replace the folder's with a smaller one (to report part of it, copy those run files into another --out)`;
  throw new UsageError(`--report-only: ${problem}; nothing was written${made}`, false);
}
