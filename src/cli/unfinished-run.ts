// The side file of an unfinished run, `<out>/runs/<preset>-seed<seed>.unfinished`, shared by both
// experiment runners (coding: experiment-unfinished-run.ts; robot: robot-unfinished-run.ts): rewritten
// whole after every step while the run trains, read back when the same command starts again so the run
// goes on where it stopped, and removed once the run file is written. A run in flight at a session's end
// or a killed process is then not lost.
//
// Every file names its format, the run's request, the hash of the code that ran it and each invocation's
// segment. One that cannot be this run's continuation (unreadable, another request, other code) is
// refused with the reason, not ignored: it may hold hours of training, which starting over would
// overwrite at the first save. Its name does not end in .json, so readers of a runs/ folder (compare
// --same, the tables) never take it for a run file.

import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { RunSegment } from '../experiments/provenance.ts';
import { behaviourDifferences } from '../experiments/run-behaviour.ts';

export const unfinishedRunPath = (runsDir: string, preset: string, seed: number): string => join(runsDir, `${preset}-seed${seed}.unfinished`);

/** What every unfinished-run file holds besides its runner's own state. */
export interface UnfinishedRunHeader<Request> {
  format: string;
  version: 1;
  /** The run's request, as its run file will hold it. */
  request: Request;
  /** The hash of the code that ran it (run-source.ts): a run goes on only under the same code. */
  codeSha256: string;
  /** The invocations that ran it so far, the last one up to its last save. */
  segments: RunSegment[];
}

/** A side file that is not this run's continuation; the message says why and what to do. */
export class UnfinishedRunRefused extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Throws UnfinishedRunRefused for the file at `path` with the reason `why`. */
export function refuseUnfinished(path: string, why: string): never {
  throw new UnfinishedRunRefused(`${relative(process.cwd(), path)}: ${why}. It is left as it is: to start this run over, move it aside (or rerun with --force, which deletes it)`);
}

/**
 * The file at `path` parsed (with `reviver`, if any) and checked to continue `request` under the code
 * `codeSha256` in the format `format`; an UnfinishedRunRefused otherwise. `request` is compared as its
 * run file holds it (JSON). The runner checks its own state in the rest of the object.
 */
export function readUnfinishedFile<Request>(
  path: string, expected: { format: string; describe: string; request: Request; codeSha256: string },
  reviver?: (key: string, value: unknown) => unknown,
): UnfinishedRunHeader<Request> & Record<string, unknown> {
  const refuse = (why: string): never => refuseUnfinished(path, why);
  let u: unknown;
  try {
    u = JSON.parse(readFileSync(path, 'utf8'), reviver);
  } catch (e) {
    refuse(`not a readable unfinished run (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!isObject(u) || u.format !== expected.format || u.version !== 1) return refuse(`not ${expected.describe} of version 1 (format ${JSON.stringify(isObject(u) ? u.format : null)})`);
  const wanted = JSON.parse(JSON.stringify(expected.request)) as unknown;
  if (!isDeepStrictEqual(u.request, wanted)) {
    const differences = behaviourDifferences(u.request, wanted, 4);
    refuse(`it continues another request than this command's (the file's vs this command's: ${differences.join('; ') || 'they differ'})`);
  }
  const segments = Array.isArray(u.segments) ? (u.segments as RunSegment[]) : refuse('it lists no segments');
  if (u.codeSha256 !== expected.codeSha256) {
    const last = segments.at(-1);
    const commit = last?.commit ? `commit ${last.commit.slice(0, 7)}${last.dirty ? ' with uncommitted changes' : ''}` : 'an unknown commit';
    refuse(`it was run by other code (${commit}, code hash ${String(u.codeSha256).slice(0, 12)}; this checkout's code hash is ${expected.codeSha256.slice(0, 12)}): a run goes on only under the code that began it, so check that code out to finish it`);
  }
  return u as UnfinishedRunHeader<Request> & Record<string, unknown>;
}
