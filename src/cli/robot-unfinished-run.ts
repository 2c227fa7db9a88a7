// The robot runner's unfinished-run file (unfinished-run.ts says what such a file is for): the trainer's
// checkpoint (policy weights, AdamW moments, the method's state) and the records of the steps done.
// Every step is saved: a save is a few megabytes of JSON, milliseconds against a step's seconds to
// minutes. A robot-paper-wmrl run of 100 steps outlasts a session of this machine.

import { checkRunProgress, type RobotRunProgress, type RobotRunRequest } from '../embodied/robot-run.ts';
import { typedJsonReplacer, typedJsonReviver } from '../primitives/typed-json.ts';
import { writeFileWhole } from './run-files.ts';
import { readUnfinishedFile, refuseUnfinished, type UnfinishedRunHeader } from './unfinished-run.ts';

export const UNFINISHED_RUN_FORMAT = 'wmrl-robot-run-unfinished';

export interface UnfinishedRobotRun extends RobotRunProgress, UnfinishedRunHeader<RobotRunRequest> {
  format: typeof UNFINISHED_RUN_FORMAT;
}

export function writeUnfinishedRun(path: string, run: UnfinishedRobotRun): void {
  writeFileWhole(path, JSON.stringify(run, typedJsonReplacer));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The unfinished run at `path`, checked to continue `request` under the code `codeSha256`;
 * an UnfinishedRunRefused otherwise.
 */
export function readUnfinishedRun(path: string, request: RobotRunRequest, codeSha256: string): UnfinishedRobotRun {
  const u = readUnfinishedFile(path, { format: UNFINISHED_RUN_FORMAT, describe: 'an unfinished robot run', request, codeSha256 }, typedJsonReviver);
  const c = u.checkpoint;
  if (!isObject(c) || !isObject(c.policy) || !(c.policy.params instanceof Float32Array) || !Array.isArray(u.steps)) return refuseUnfinished(path, 'it holds no trainer checkpoint with weights and step records');
  try {
    checkRunProgress(request, u as unknown as RobotRunProgress);
  } catch (e) {
    refuseUnfinished(path, `it is damaged (${e instanceof Error ? e.message : String(e)})`);
  }
  return u as unknown as UnfinishedRobotRun;
}
