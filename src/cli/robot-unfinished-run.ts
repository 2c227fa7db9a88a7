// The side file of an unfinished robot run, `<out>/runs/<preset>-seed<seed>.unfinished`: rewritten whole
// after every step while the run trains, read back when the same command starts again so the run goes
// on where it stopped, and removed once the run file is written. A robot-paper-wmrl run of 100 steps
// outlasts a session of this machine; without it a run in flight at a stop was lost.
//
// It holds the trainer's checkpoint (policy weights, AdamW moments, the method's state), the records of
// the steps done, the request, the hash of the code that ran (runCodeHash) and each invocation's
// segment. Every step is saved: a save is a few megabytes of JSON, milliseconds against a step's seconds
// to minutes. A file that cannot be this run's own continuation (unreadable, another request, another
// policy or progress model, other code) is refused with the reason, not ignored: it may hold hours of
// training, which starting over would overwrite at the first save. Its name does not end in .json, so
// readers of a runs/ folder (compare --same, the tables) never take it for a run file.

import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { checkRunProgress, type RobotRunProgress, type RobotRunRequest } from '../embodied/robot-run.ts';
import type { RunSegment } from '../experiments/provenance.ts';
import { behaviourDifferences } from '../experiments/run-behaviour.ts';
import { typedJsonReplacer, typedJsonReviver } from '../primitives/typed-json.ts';
import { writeFileWhole } from './run-files.ts';

export const UNFINISHED_RUN_FORMAT = 'wmrl-robot-run-unfinished';

export interface UnfinishedRobotRun extends RobotRunProgress {
  format: typeof UNFINISHED_RUN_FORMAT;
  version: 1;
  /** The run's request, as its run file will hold it. */
  request: RobotRunRequest;
  /** runCodeHash of the checkout that ran it: a run goes on only under the same code. */
  codeSha256: string;
  /** The invocations that ran it so far, the last one up to its last save. */
  segments: RunSegment[];
}

export const unfinishedRunPath = (runsDir: string, preset: string, seed: number): string => join(runsDir, `${preset}-seed${seed}.unfinished`);

export function writeUnfinishedRun(path: string, run: UnfinishedRobotRun): void {
  writeFileWhole(path, JSON.stringify(run, typedJsonReplacer));
}

/** A side file that is not this run's continuation; the message says why and what to do. */
export class UnfinishedRunRefused extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The unfinished run at `path`, checked to continue `request` under the code `codeSha256`;
 * an UnfinishedRunRefused otherwise. `request` is compared as its run file holds it (JSON).
 */
export function readUnfinishedRun(path: string, request: RobotRunRequest, codeSha256: string): UnfinishedRobotRun {
  const refuse = (why: string): never => {
    throw new UnfinishedRunRefused(`${relative(process.cwd(), path)}: ${why}. It is left as it is: to start this run over, move it aside (or rerun with --force, which deletes it)`);
  };
  let u: unknown;
  try {
    u = JSON.parse(readFileSync(path, 'utf8'), typedJsonReviver);
  } catch (e) {
    refuse(`not a readable unfinished run (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!isObject(u) || u.format !== UNFINISHED_RUN_FORMAT || u.version !== 1) return refuse(`not an unfinished robot run of version 1 (format ${JSON.stringify(isObject(u) ? u.format : null)})`);
  const wanted = JSON.parse(JSON.stringify(request)) as unknown;
  if (!isDeepStrictEqual(u.request, wanted)) {
    const differences = behaviourDifferences(u.request, wanted, 4);
    refuse(`it continues another request than this command's (the file's vs this command's: ${differences.join('; ') || 'they differ'})`);
  }
  const segments = Array.isArray(u.segments) ? (u.segments as RunSegment[]) : refuse('it lists no segments');
  if (u.codeSha256 !== codeSha256) {
    const last = segments.at(-1);
    const commit = last?.commit ? `commit ${last.commit.slice(0, 7)}${last.dirty ? ' with uncommitted changes' : ''}` : 'an unknown commit';
    refuse(`it was run by other code (${commit}, code hash ${String(u.codeSha256).slice(0, 12)}; this checkout's code hash is ${codeSha256.slice(0, 12)}): a run goes on only under the code that began it, so check that code out to finish it`);
  }
  const c = u.checkpoint;
  if (!isObject(c) || !isObject(c.policy) || !(c.policy.params instanceof Float32Array) || !Array.isArray(u.steps)) return refuse('it holds no trainer checkpoint with weights and step records');
  try {
    checkRunProgress(request, u as unknown as RobotRunProgress);
  } catch (e) {
    refuse(`it is damaged (${e instanceof Error ? e.message : String(e)})`);
  }
  return u as unknown as UnfinishedRobotRun;
}
