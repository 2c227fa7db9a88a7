// Every command-line tool answers a mistyped flag (unknown, or a flag value it refuses) with one line
// that names it and exit status 2, never Node's stack trace, and before it starts any work; and
// answers --help with a list that names every flag it reads.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../../run-cli.ts';

/** The tools a user runs, as they are run (the robot experiment through `experiment --domain robot`, its flags read in robot-experiment.ts). */
const TOOLS: { file: string; args: string[]; flagsIn?: string }[] = [
  { file: 'build-leaderboards.ts', args: [] },
  { file: 'build-models.ts', args: [] },
  { file: 'build-tasks.ts', args: [] },
  { file: 'compare.ts', args: [] },
  { file: 'experiment.ts', args: [] },
  { file: 'experiment.ts', args: ['--domain', 'robot'], flagsIn: 'robot-experiment.ts' },
  { file: 'own-data-samples.ts', args: [] },
  { file: 'predict.ts', args: [] },
  { file: 'robot-bc.ts', args: [] },
  { file: 'robot-progress.ts', args: [] },
  { file: 'sample-programs.ts', args: [] },
  { file: 'score.ts', args: [] },
  { file: 'serve-static.ts', args: [] },
  { file: 'wm-eval.ts', args: [] },
];

/** Modules that parse flags for a tool listed above rather than being run themselves. */
const PARSED_FOR_ANOTHER = ['robot-experiment.ts', 'cli-input.ts'];

const stackLine = /^\s+at .+[:(]/m;

/** The flags a tool's source declares to parseFlags / parseArgs (`name: { type: ... }` in the call's options). */
function declaredFlags(file: string): string[] {
  const text = readFileSync(join(REPO_ROOT, 'src/cli', file), 'utf8');
  const open = text.indexOf('(', text.search(/\bparse(Args|Flags)\(/));
  let depth = 0;
  let end = open;
  do depth += text[end] === '(' ? 1 : text[end] === ')' ? -1 : 0;
  while (depth > 0 && ++end < text.length);
  const call = text.slice(open, end);
  return [...call.matchAll(/['"]?([a-zA-Z][\w-]*)['"]?\s*:\s*\{\s*type:/g)].map((m) => m[1]);
}

describe('flag errors of the command-line tools', { timeout: 240_000 }, () => {
  it('lists every tool that reads flags', () => {
    const dir = join(REPO_ROOT, 'src/cli');
    const parsing = readdirSync(dir).filter((f) => f.endsWith('.ts') && /\bparse(Args|Flags)\(/.test(readFileSync(join(dir, f), 'utf8')));
    expect(parsing.filter((f) => !PARSED_FOR_ANOTHER.includes(f)).sort()).toEqual([...new Set(TOOLS.map((t) => t.file))].sort());
  });

  for (const t of TOOLS) {
    it(`${[t.file, ...t.args].join(' ')}: an unknown flag is one message and exit 2`, () => {
      const r = runCli(join('src/cli', t.file), [...t.args, '--no-such-flag']);
      expect(r.stderr).toMatch(/Unknown option '--no-such-flag'/);
      expect(r.stderr).not.toMatch(stackLine);
      expect(r.status).toBe(2);
    });
  }

  it('a flag value that looks like a flag, and values the tools refuse, are one message and exit 2', () => {
    const cases: { file: string; args: string[]; says: RegExp }[] = [
      { file: 'experiment.ts', args: ['--steps', '-3'], says: /Option '--steps' argument is ambiguous/ },
      { file: 'build-leaderboards.ts', args: ['--jobs', 'all'], says: /^build-leaderboards: --jobs must be a positive integer, got "all"$/m },
      { file: 'build-models.ts', args: ['--seed', 'x'], says: /^build-models: --seed must be an integer, got x$/m },
      { file: 'build-models.ts', args: ['--threads', 'many'], says: /^build-models: --threads must be a positive integer, got "many"$/m },
      { file: 'build-models.ts', args: ['--config', 'huge'], says: /^build-models: --config must be one of .*, got huge$/m },
      { file: 'build-models.ts', args: ['--wm-steps', '3', '--wm-epochs', '2'], says: /^build-models: --wm-steps and --wm-epochs both set the world model's training length: give one$/m },
      { file: 'sample-programs.ts', args: ['--workers', '0', '--out', 'x.jsonl'], says: /^sample: --workers must be a positive integer, got "0"$/m },
      { file: 'robot-bc.ts', args: ['--lead', 'sideways'], says: /^robot-bc: --lead must be one of .*, got sideways$/m },
      { file: 'robot-bc.ts', args: ['--model', 'huge'], says: /^robot-bc: --model must be one of .*, got huge$/m },
      { file: 'robot-progress.ts', args: ['--steps', 'many'], says: /^robot-progress: --steps must be a positive integer, got "many"$/m },
      { file: 'sample-programs.ts', args: ['--split', 'test', '--out', 'x.jsonl'], says: /^sample: --split must be heldout or train, got test$/m },
    ];
    for (const c of cases) {
      const r = runCli(join('src/cli', c.file), c.args);
      expect(r.stderr, c.args.join(' ')).toMatch(c.says);
      expect(r.stderr, c.args.join(' ')).not.toMatch(stackLine);
      expect(r.status, c.args.join(' ')).toBe(2);
    }
  });

  for (const t of TOOLS) {
    it(`${[t.file, ...t.args].join(' ')} --help lists every flag it reads, exit 0`, () => {
      const r = runCli(join('src/cli', t.file), [...t.args, '--help']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^usage: /);
      const flags = declaredFlags(t.flagsIn ?? t.file);
      expect(flags.length).toBeGreaterThan(0);
      expect(flags.filter((f) => f !== 'help' && !r.stdout.includes(`--${f}`))).toEqual([]);
    });
  }
});
