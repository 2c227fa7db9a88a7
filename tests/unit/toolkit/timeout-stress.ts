// Child process of runner.test.ts: many runs of an endless program with deadlines of 1 to 50 ms, which
// land the interrupt anywhere (the runner's set-up, the program, the runner's clean-up). Prints one line
// a run, then one line for a normal program run afterwards. A lost interrupt holds this process forever;
// the test notices that no line comes and ends it.
import { TrustedPyodideRunner } from '../../../src/sandbox-pyodide/node-runner.ts';

const DEADLINES_MS = [1, 2, 5, 10, 20, 50];

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 120);
  const runner = await TrustedPyodideRunner.create();
  const line = (o: object) => process.stdout.write(JSON.stringify(o) + '\n');
  line({ ready: true });
  for (let i = 0; i < runs; i++) {
    const ms = DEADLINES_MS[i % DEADLINES_MS.length];
    try {
      const r = await runner.run('while True:\n    pass\n', 'a\n1\n', 'a\n1\n', '{}', ms);
      line({ i, ms, status: r.status, timedOut: r.timedOut });
    } catch (e) {
      line({ i, ms, threw: String(e).slice(-300) });
    }
  }
  const after = await runner.run("import os\nprint('fine', os.getcwd(), sorted(os.listdir('.')))\n", 'a\n1\n', 'a\n1\n', '{}', 5_000);
  line({ after: { status: after.status, stdout: after.stdout, timedOut: after.timedOut } });
}

void main().then(() => process.exit(0));
