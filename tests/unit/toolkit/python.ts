// Test helper: one trusted Pyodide runner per test file, and a way to evaluate Python that returns JSON.

import { TrustedPyodideRunner } from '../../../src/sandbox-pyodide/node-runner.ts';

let shared: Promise<TrustedPyodideRunner> | undefined;

export function pyRunner(): Promise<TrustedPyodideRunner> {
  shared ??= TrustedPyodideRunner.create();
  return shared;
}

/** Run Python that assigns `result` (anything json.dumps accepts); returns it parsed. */
export async function py<T>(code: string): Promise<T> {
  const runner = await pyRunner();
  const text = runner.runPython(`import json\nimport toolkit as tk\nresult = None\n${code}\njson.dumps(result)`) as string;
  return JSON.parse(text) as T;
}
