// A CSV given to a command-line tool is sized before it is read: a 1 GB file (sparse, so it costs no
// disk) is refused at once with its size, instead of being read whole and called "not UTF-8"; a pipe,
// which stat cannot size, is refused as soon as it has given more than the limit.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CSV_BYTES } from '../../../src/tasks/text-files.ts';
import { REPO_ROOT, runCli } from '../../run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'wmrl-csv-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('score and predict with a CSV over the size limit', { timeout: 120_000 }, () => {
  it('say the file is too large and exit 2, without reading it', () => {
    const csv = join(dir, 'huge.csv');
    const fd = openSync(csv, 'w');
    ftruncateSync(fd, 1 << 30);
    closeSync(fd);
    const program = join(dir, 'p.py');
    writeFileSync(program, 'print(1)\n');
    for (const tool of ['src/cli/score.ts', 'src/cli/predict.ts']) {
      const r = runCli(tool, ['--csv', csv, '--target', 'y', '--metric', 'rmse', '--program', program]);
      expect(r.stderr, tool).toMatch(/huge\.csv is too large: 1073741824 bytes, limit 20971520 \(20 MiB\)/);
      expect(r.stderr, tool).not.toMatch(/UTF-8/);
      expect(r.status, tool).toBe(2);
    }
  });

  // `writer | score --csv /dev/stdin`, a real pipe as a shell makes it: the writer offers `offer` bytes
  // of `text` repeated, in writes of up to 1 MiB, and records how many the pipe took before it broke
  // (EPIPE: the reader had gone).
  const pipeIntoScore = (text: string, offer: number, csvArgs: string[]) => {
    const took = join(dir, 'took.json');
    const writer = `const fs = require('node:fs'); const b = Buffer.alloc(Math.min(1 << 20, ${offer}), ${JSON.stringify(text)}); let n = 0, error = null;
      try { while (n < ${offer}) n += fs.writeSync(1, b, 0, Math.min(b.length, ${offer} - n)); } catch (e) { error = e.code; }
      fs.writeFileSync(${JSON.stringify(took)}, JSON.stringify({ n, error }));`;
    const program = join(dir, 'p.py');
    writeFileSync(program, 'print(1)\n');
    const cli = [process.execPath, join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs'), 'src/cli/score.ts', '--csv', '/dev/stdin', ...csvArgs, '--program', program];
    const r = spawnSync('bash', ['-c', '"$0" -e "$1" | "${@:2}"', process.execPath, writer, ...cli], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
    return { ...r, took: JSON.parse(readFileSync(took, 'utf8')) as { n: number; error: string | null } };
  };

  it('score --csv /dev/stdin refuses a pipe over the limit once it has passed it, without draining it', () => {
    const offer = 3 * MAX_CSV_BYTES;
    const r = pipeIntoScore('a', offer, ['--target', 'y', '--metric', 'rmse']);
    // the pipe took the limit and a little more (what its buffer holds), then broke: not the 60 MiB offered
    expect(r.took.n).toBeGreaterThan(MAX_CSV_BYTES);
    expect(r.took.n).toBeLessThan(MAX_CSV_BYTES + (2 << 20));
    expect(r.took.error).toBe('EPIPE');
    expect(r.stderr).toContain(`/dev/stdin is too large: more than ${MAX_CSV_BYTES} bytes (a pipe or device, read until it passed the limit), limit ${MAX_CSV_BYTES} (20 MiB)`);
    expect(r.status).toBe(2);
  });

  it('score --csv /dev/stdin reads a small pipe whole: the CSV is parsed (here, to say the target is not a column)', () => {
    const csv = 'x,y\n1,2\n';
    const r = pipeIntoScore(csv, csv.length, ['--target', 'zz', '--metric', 'rmse']);
    expect(r.took).toEqual({ n: csv.length, error: null });
    expect(r.stderr).toMatch(/target column "zz" is not in the header \(columns: "x", "y"\)/);
    expect(r.status).toBe(2);
  });
});
