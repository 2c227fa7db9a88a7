// The free verifier (static_check.py) for the command-line tools, in the trusted Node runner.
// Safe there for the same reason the browser's verifier may reuse its interpreter: the only code
// that runs is the project's own static_check.py; the programs it is given are data that it parses
// and compiles, never executes (tests/unit/sandbox/static-check.test.ts holds it to that).
import { readFileSync } from 'node:fs';
import { judgeEach, parseStaticChecks, verifierRequest, verifierTimeoutMs } from '../training/static-checks.ts';
import { TrustedPyodideRunner } from '../sandbox-pyodide/node-runner.ts';
import type { StaticCheck } from '../training/ports.ts';

const SOURCE = readFileSync(new URL('../sandbox-pyodide/python/static_check.py', import.meta.url), 'utf8');
const newRunner = (): Promise<TrustedPyodideRunner> => TrustedPyodideRunner.create({ outputCap: 1 << 24 });

export class NodeStaticVerifier {
  private constructor(private runner: TrustedPyodideRunner | null) {}

  static async create(runner?: TrustedPyodideRunner): Promise<NodeStaticVerifier> {
    return new NodeStaticVerifier(runner ?? (await newRunner()));
  }

  /**
   * One answer per program, in order: a program the verifier cannot judge is rejected with the
   * reason, and its neighbours keep their answers (judgeEach). An interpreter that died on a
   * program (Pyodide's fatal errors) is replaced before the next run.
   */
  async check(programs: readonly string[]): Promise<StaticCheck[]> {
    return judgeEach(programs, async (chunk) => {
      this.runner ??= await newRunner();
      let r;
      try {
        r = await this.runner.run(SOURCE, '', '', verifierRequest(chunk), verifierTimeoutMs(chunk.length));
      } catch (e) {
        this.runner = null;
        throw e;
      }
      return parseStaticChecks(r.status === 'ok' ? r.stdout : null, chunk.length, r.traceback ?? r.status);
    });
  }
}
