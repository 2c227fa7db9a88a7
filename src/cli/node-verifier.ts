// The free verifier (static_check.py) for the command-line tools, in the trusted Node runner.
// Safe there for the same reason the browser's verifier may reuse its interpreter: the only code
// that runs is the project's own static_check.py; the programs it is given are data that it parses
// and compiles, never executes (tests/unit/sandbox/static-check.test.ts holds it to that).
import { readFileSync } from 'node:fs';
import { parseStaticChecks } from '../training/static-checks.ts';
import { TrustedPyodideRunner } from '../sandbox-pyodide/node-runner.ts';
import type { StaticCheck } from '../training/ports.ts';

const SOURCE = readFileSync(new URL('../sandbox-pyodide/python/static_check.py', import.meta.url), 'utf8');

export class NodeStaticVerifier {
  private constructor(private readonly runner: TrustedPyodideRunner) {}

  static async create(runner?: TrustedPyodideRunner): Promise<NodeStaticVerifier> {
    return new NodeStaticVerifier(runner ?? (await TrustedPyodideRunner.create({ outputCap: 1 << 24 })));
  }

  /** One answer per program, in order; a verifier that did not answer throws, it never passes a program. */
  async check(programs: readonly string[]): Promise<StaticCheck[]> {
    const out: StaticCheck[] = [];
    for (let s = 0; s < programs.length; s += 256) {
      const chunk = programs.slice(s, s + 256);
      const r = await this.runner.run(SOURCE, '', '', JSON.stringify({ programs: chunk }), 120_000);
      out.push(...parseStaticChecks(r.status === 'ok' ? r.stdout : null, chunk.length, r.traceback ?? r.status));
    }
    return out;
  }
}
