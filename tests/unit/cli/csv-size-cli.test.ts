// A CSV given to a command-line tool is sized before it is read: a 1 GB file (sparse, so it costs no
// disk) is refused at once with its size, instead of being read whole and called "not UTF-8".
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../run-cli';

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
});
